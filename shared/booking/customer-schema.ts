import type { FromSchema } from 'json-schema-to-ts';

/**
 * A booking's customer, apart from the other booking schemas: OCTo's
 * contacts are checked against its limits by the code every OCTo booking
 * function loads, which would otherwise load every booking schema with it.
 */

/** E.164: '+', a country code that does not start with 0, at most 15 digits in all. */
export const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';

const name = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  // Some visible text, and no control characters (they break the operator's exports and printed lists).
  pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
  errorMessage: 'must be 1 to 100 characters, not all blank, without control characters',
} as const;

export const customerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['FirstName', 'LastName', 'Email'],
  properties: {
    FirstName: name,
    LastName: name,
    Email: { type: 'string', maxLength: 254, format: 'email', errorMessage: 'must be an email address such as ana@example.com' },
    Phone: { type: 'string', pattern: E164_PATTERN, errorMessage: 'must be in E.164 format, such as +351912345678' },
  },
} as const;
export type Customer = FromSchema<typeof customerSchema>;
