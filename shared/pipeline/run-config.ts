import type { JudgeConfig } from '../judges/judge-config.js';

/**
 * Everything that decides a run's results: the config file's contents (judge
 * settings, judges, run settings) and the CLI's --strict. It is stored in the
 * manifest and hashed into the run id; it never holds a secret.
 */
export type RunConfig = JudgeConfig & { readonly strict: boolean };
