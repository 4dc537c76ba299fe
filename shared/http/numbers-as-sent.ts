import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { checkNumbersAsSent, type JsonPath } from '../core/json-numbers';

/** A field as the generated number rules name it: array indexes left out (`Entries[].Usage`). */
const ruleKey = (path: JsonPath): string =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[]` : name ? `${name}.${key}` : key), '');

/**
 * Refuses a JSON body holding a number that would not be read as it was
 * written (shared/core/json-numbers.ts): a 422 naming every such field, with
 * its rule (`rules`, generated from the route's body schema). It reads the
 * body's text, so it runs before the body parser; a body that is not JSON is
 * left to the parser to refuse.
 */
export const numbersAsSent = (
  rules: Readonly<Record<string, string>>,
): MiddlewareObj<Omit<APIGatewayProxyEvent, 'body'> & { body: unknown }, APIGatewayProxyResult> => ({
  before: ({ event }) => {
    if (typeof event.body !== 'string') return;
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString() : event.body;
    checkNumbersAsSent(text, (path) => {
      const key = ruleKey(path);
      return Object.hasOwn(rules, key) ? rules[key] : undefined;
    });
  },
});
