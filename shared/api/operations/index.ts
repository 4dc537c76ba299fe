import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Operation, RequestSchemas } from '../operation';
import { accountOperations } from './account';
import { bookingOperations } from './bookings';
import { catalogueOperations } from './catalogue';
import { octoOperations } from './octo';
import { timeslotOperations } from './timeslots';
import { usageOperations } from './usage';
import { webhookOperations } from './webhooks';
import type { RouteId } from '../routes';

export type { ObjectSchema, Operation, OperationDocs, RequestSchemas } from '../operation';

/**
 * What each route of the route table (routes.ts) takes and answers, by its
 * ID: the schemas its request is validated with and the docs of its
 * operation, one table per tag (operations/). Build-time knowledge: the
 * validators are generated from it, the request types derived from it and
 * the OpenAPI document built from it, so none of it is loaded by a function.
 */
const operationTable = {
  ...catalogueOperations,
  ...bookingOperations,
  ...timeslotOperations,
  ...webhookOperations,
  ...accountOperations,
  ...usageOperations,
  ...octoOperations,
} as const satisfies Record<RouteId, Operation>;

export const operations: Readonly<Record<RouteId, Operation>> = operationTable;

type Parsed<Entry, Part extends keyof RequestSchemas> = Entry extends { request: { [P in Part]: infer S extends JSONSchema } }
  ? FromSchema<S>
  : Record<string, never>;

/** What a route's handler receives once its request has been validated: the types derived from the route's own schemas. */
export interface RequestOf<Id extends RouteId> {
  path: Parsed<(typeof operationTable)[Id], 'path'>;
  query: Parsed<(typeof operationTable)[Id], 'query'>;
  body: Parsed<(typeof operationTable)[Id], 'body'>;
}
