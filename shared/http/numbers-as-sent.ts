import type { MiddlewareObj } from '@middy/core';
import type { SchemaObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { checkNumbersAsSent, type JsonPath } from '../core/json-numbers';

/** The rule of the field at `path`, as its schema words it (`errorMessage`), when the schema has one there. */
function ruleAt(schema: SchemaObject, path: JsonPath): string | undefined {
  let at: SchemaObject | undefined = schema;
  for (const key of path) {
    const properties: Record<string, SchemaObject> | undefined = at?.properties;
    at = typeof key === 'number' ? at?.items : properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  }
  return at?.errorMessage;
}

/**
 * Refuses a JSON body holding a number that would not be read as it was
 * written (shared/core/json-numbers.ts): a 422 naming every such field, with
 * its rule. It reads the body's text, so it runs before the body parser; a
 * body that is not JSON is left to the parser to refuse.
 */
export const numbersAsSent = (
  schema: SchemaObject,
): MiddlewareObj<Omit<APIGatewayProxyEvent, 'body'> & { body: unknown }, APIGatewayProxyResult> => ({
  before: ({ event }) => {
    if (typeof event.body !== 'string') return;
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString() : event.body;
    checkNumbersAsSent(text, (path) => ruleAt(schema, path));
  },
});
