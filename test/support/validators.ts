import path from 'node:path';
import { PROJECT_ROOT, type Route } from '../../shared/api/routes';
import type { GeneratedValidator } from '../../shared/core/validation';
import { ROUTE_VALIDATORS_DIR } from '../../scripts/validators';

/** The validators generated for a route, as its function loads them. */
export function routeValidators(route: Route): { path?: GeneratedValidator; query?: GeneratedValidator; body?: GeneratedValidator } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module is named by the route table, as the function names it
  return require(path.join(PROJECT_ROOT, ROUTE_VALIDATORS_DIR, `${route.id}.generated`)).validators;
}
