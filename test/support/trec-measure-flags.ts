/**
 * The -m flags the trec_eval comparisons use, written as on trec_eval's
 * command line. GOLDEN: every measure ir-metrics implements, as the golden
 * files of test/fixtures/trec-eval were produced. SHARED_TASK: what a shared
 * task such as TREC 2003 Robust reports for each run (the benches' many-runs
 * part, test/fixtures/trec-real-scores).
 */
export const GOLDEN_MEASURE_FLAGS: readonly string[] =
  '-m map -m P.5,10,20 -m recall.5,10,100 -m ndcg -m ndcg_cut.5,10,20 -m recip_rank -m Rprec -m num_rel -m num_ret -m num_rel_ret'.split(
    ' ',
  );

export const SHARED_TASK_MEASURE_FLAGS: readonly string[] =
  '-m map -m P.5,10,20 -m recall.10,100,1000 -m ndcg -m ndcg_cut.10,20 -m recip_rank -m Rprec'.split(' ');
