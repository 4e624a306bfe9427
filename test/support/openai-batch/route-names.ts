/**
 * The routes of the test batch server by name (the method, then the path
 * below the prefix with `{id}` for an id), as its switch and its HTTP
 * faults name them.
 */
export const ROUTE_NAMES = [
  'POST files',
  'GET files',
  'GET files/{id}',
  'GET files/{id}/content',
  'DELETE files/{id}',
  'POST batches',
  'GET batches',
  'GET batches/{id}',
  'POST batches/{id}/cancel',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/** The route a request names, e.g. `GET batches/{id}` for `GET /batches/batch_test1`; undefined when none. */
export function routeNameOf(method: string, resource: string): RouteName | undefined {
  const [collection, id, action, ...rest] = resource.split('/').slice(1);
  if (rest.length > 0) return undefined;
  const name = `${method} ${collection ?? ''}${id === undefined ? '' : '/{id}'}${action === undefined ? '' : `/${action}`}`;
  return ROUTE_NAMES.find((known) => known === name);
}
