import { entryPath } from '../shared/api/routes';

/** The `handler` export of a function module named by a route's (or an event rule's) entry, as Lambda would load it. */
export const loadHandler = <T>(entry: string): T =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named by data (the route table), as Lambda names it
  require(entryPath(entry)).handler as T;
