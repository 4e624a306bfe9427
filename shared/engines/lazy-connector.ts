import type { Connector } from './engine.js';

/**
 * A connector whose client library is loaded on its first call. The
 * connectors' libraries (an OpenSearch client of hundreds of modules, pg,
 * the AWS SDK clients) would otherwise load with every command that can
 * build engines, though a run uses one kind of engine or none.
 */
export function lazyConnector(load: () => Promise<Connector>): Connector {
  let loading: Promise<Connector> | undefined;
  return {
    async attempt(request, signal) {
      loading ??= load();
      return (await loading).attempt(request, signal);
    },
    async close() {
      if (loading !== undefined) await (await loading).close();
    },
  };
}
