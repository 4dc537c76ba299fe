import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { FieldViolation } from '../core/errors';
import { numberViolations, type JsonPath } from '../core/json-numbers';

/** A field as the generated number rules name it: array indexes left out (`Entries[].Usage`). */
const ruleKey = (path: JsonPath): string =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[]` : name ? `${name}.${key}` : key), '');

/** What the check found in each request's body, until its validation reads it. */
const found = new WeakMap<object, FieldViolation[]>();

/**
 * Finds the numbers of a JSON body that would not be read as they were
 * written (shared/core/json-numbers.ts), each with its rule (`rules`,
 * generated from the route's body schema). It reads the body's text, so it
 * runs before the body parser; a body that is not JSON is left to the parser
 * to refuse. What it finds is refused with the faults the body's validation
 * finds (`numbersNotAsSent`), so that one answer lists them all.
 */
export const numbersAsSent = (
  rules: Readonly<Record<string, string>>,
): MiddlewareObj<Omit<APIGatewayProxyEvent, 'body'> & { body: unknown }, APIGatewayProxyResult> => ({
  before: ({ event }) => {
    if (typeof event.body !== 'string') return;
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString() : event.body;
    const violations = numberViolations(text, (path) => {
      const key = ruleKey(path);
      return Object.hasOwn(rules, key) ? rules[key] : undefined;
    });
    if (violations.length) found.set(event, violations);
  },
});

/** The numbers of the event's body that would not be read as written (none when the route's body was not checked). */
export const numbersNotAsSent = (event: object): FieldViolation[] => found.get(event) ?? [];
