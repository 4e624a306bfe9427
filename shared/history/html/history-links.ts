/** Where a history page's links go: the stored history.html links beside itself, `assay view` to its own pages. */
export interface HistoryLinks {
  /** A run's report page. */
  readonly report: (runId: string) => string;
  /** The comparison of two runs, when the page can offer one. */
  readonly compare?: (runOfA: string, runOfB: string) => string;
}
