import { entryPath } from '../shared/api/routes';

/** The `handler` export of a function module named by a route's (or an event rule's) entry, as Lambda would load it. */
export const loadHandler = <T>(entry: string): T => require(entryPath(entry)).handler as T;
