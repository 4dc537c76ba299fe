import type { JSONSchema } from 'json-schema-to-ts';
import type { ResponseSchemaName } from './response-schemas';

/** What an operation of the route table is: the schemas its request is validated with, and its docs. */

/** A JSON Schema of an object, as the request schemas are. */
export type ObjectSchema = Extract<JSONSchema, { readonly type?: unknown }> & { readonly type: 'object' };

/** The schemas an operation's request is validated with; path faults are 400, query and body faults 422. */
export interface RequestSchemas {
  path?: ObjectSchema;
  query?: ObjectSchema;
  body?: ObjectSchema;
}

/** What the code cannot say about an operation, for the OpenAPI document: its words, examples and the errors its domain raises. */
export interface OperationDocs {
  tag: 'Catalogue' | 'Bookings' | 'Timeslots' | 'Webhooks' | 'Usage' | 'Account' | 'OCTo';
  summary: string;
  description: string;
  success: {
    status: 200 | 201 | 204;
    description: string;
    /** The schema of `data` (of the whole body on OCTo routes): a named record, a list of one, or one of several; none for 204. */
    data?: ResponseSchemaName | { listOf: ResponseSchemaName } | { oneOf: ResponseSchemaName[] };
    example?: unknown;
    headers?: ('Location' | 'Idempotent-Replayed')[];
  };
  /** Statuses the domain raises beyond those the schemas, the body and the gateway imply. */
  errors?: number[];
  requestExample?: unknown;
  idempotencyKey?: boolean;
}

export interface Operation {
  /** What the request may carry: the function's validators are generated from these (scripts/validators.ts), and the OpenAPI document shows them. */
  request?: RequestSchemas;
  docs: OperationDocs;
}
