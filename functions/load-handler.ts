import { entryPath, type RequestSchemas, type Route } from '../shared/api/routes';

/** The `handler` export of a function module named by a route's (or an event rule's) entry, as Lambda would load it. */
export const loadHandler = <T>(entry: string): T =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named by data (the route table), as Lambda names it
  require(entryPath(entry)).handler as T;

/** The schemas a route's handler validates with, as `httpHandler` attached them: what the OpenAPI document is built from. */
export function routeSchemas(route: Route): RequestSchemas {
  const handler = loadHandler<{ schemas?: RequestSchemas } | undefined>(route.entry);
  if (!handler?.schemas) throw new Error(`${route.entry} does not export a handler built by httpHandler`);
  return handler.schemas;
}
