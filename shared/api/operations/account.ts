import { keyOperator } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** The account: the calling key and its operator. */
export const accountOperations = {
  'get-operator': {
    docs: {
      tag: 'Account',
      summary: 'The calling key and its operator',
      description:
        "Who is calling: the operator the key belongs to (its name and IANA time zone, in which every booking date and time is expressed) and the key's own ID and scopes, for a client to set itself up (the dashboard's default time zone, the actions it offers).",
      success: { status: 200, description: 'The operator and the key', data: 'KeyOperator', example: keyOperator },
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
