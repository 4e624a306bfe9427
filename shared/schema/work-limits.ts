/**
 * Upper bounds of the settings that say how much work runs at once. Without
 * them a typo costs the machine: `--concurrency 1000000` starts 250,000 queue
 * consumers and never finishes, and `--threads 100000` took 5.9 GB before any
 * work was done.
 */

/**
 * The most judge calls (`--concurrency`, `judge.concurrency`) or live engine
 * calls (`run.engine_concurrency`, `assay engines --concurrency`) in flight at
 * once: far above what a judge server's rate limit or a search service allows
 * one client.
 */
export const MAX_CONCURRENCY = 1000;

/**
 * The most worker threads of an embedded run (`--threads`): one a core of a
 * large server. Each thread costs about 30 MB before it does any work.
 */
export const MAX_THREADS = 64;

/**
 * The most bootstrap resamples of an interval (`assay agreement --resamples`):
 * a hundred times the default of 1,000. On the agreement test collection
 * 1,000 took 1.1 s and 100,000 took 43 s; 999999999, an extra few digits,
 * would run for days without a word.
 */
export const MAX_RESAMPLES = 100_000;

/**
 * The most random sign flips of a randomization test (`assay compare
 * --permutations`): a hundred times the default of 10,000. Comparing two
 * runs of 500 cases took 0.56 s with 10,000 and 4.35 s with 1,000,000; the
 * time grows with flips × cases × metrics, so 999999999 would run for hours.
 */
export const MAX_PERMUTATIONS = 1_000_000;
