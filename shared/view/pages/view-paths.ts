/** The view's own addresses, built in one place from checked names (each segment encoded). */
export const viewPaths = {
  suites: () => '/',
  suite: (suite: string) => `/suites/${encodeURIComponent(suite)}`,
  run: (runId: string) => `/runs/${encodeURIComponent(runId)}`,
  cases: (runId: string, offset = 0, limit?: number) =>
    `/runs/${encodeURIComponent(runId)}/cases${query({ offset: offset === 0 ? undefined : offset, limit })}`,
  compareForm: () => '/compare',
  compare: (a: string, b: string, choice: { engine?: string; metric?: string; offset?: number; limit?: number } = {}) =>
    `/compare${query({ a, b, engine: choice.engine, metric: choice.metric, offset: choice.offset === 0 ? undefined : choice.offset, limit: choice.limit })}`,
  historyApi: (suite: string) => `/api/suites/${encodeURIComponent(suite)}/history`,
  reportApi: (runId: string) => `/api/runs/${encodeURIComponent(runId)}/report`,
};

function query(values: Readonly<Record<string, string | number | undefined>>): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) parameters.set(name, String(value));
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}
