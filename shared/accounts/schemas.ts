import type { FromSchema } from 'json-schema-to-ts';
import { SCOPES } from './scopes';

/** The calling key and its operator, as GET /api/v2/operator answers them. */
export const keyOperatorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['OperatorID', 'Name', 'TimeZone', 'Key'],
  properties: {
    OperatorID: { type: 'string' },
    Name: { type: 'string' },
    TimeZone: { type: 'string', description: "The operator's IANA time zone: every booking Date and Time is local to it" },
    Key: {
      type: 'object',
      additionalProperties: false,
      required: ['KeyID', 'Scopes'],
      properties: {
        KeyID: { type: 'string', description: 'The public ID of the key that called' },
        Scopes: {
          type: 'array',
          items: { type: 'string', enum: Object.keys(SCOPES) as (keyof typeof SCOPES)[] },
          description: 'What it may do',
        },
      },
    },
  },
} as const;
export type KeyOperator = FromSchema<typeof keyOperatorSchema>;
