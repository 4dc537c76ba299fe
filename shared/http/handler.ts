import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { SchemaObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { fromAuthorizerContext, type Caller } from './caller';
import { BadRequestError, ProblemError, UnsupportedMediaTypeError, ValidationError } from './errors';
import { observedRequests } from './observability';
import { problem, problemResponse } from './problem';
import { compileValidator, type Validator } from '../core/validation';

export interface RequestSchemas {
  /** Path parameter faults are 400 (the resource address itself is malformed). */
  path?: SchemaObject;
  /** Query and body faults are 422 (the address is fine, the input is not). */
  query?: SchemaObject;
  body?: SchemaObject;
}

export interface HttpRequest<P, Q, B> {
  caller: Caller;
  path: P;
  query: Q;
  body: B;
  headers: Record<string, string | undefined>;
  event: APIGatewayProxyEvent;
}

type ParsedEvent = Omit<APIGatewayProxyEvent, 'body'> & { body: unknown };

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export const ok = (data: unknown): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: JSON_HEADERS,
  body: JSON.stringify({ data }),
});

export interface CreatedOptions {
  /** Where the created resource can be read back, when a route serves it. */
  location?: string;
  /** True when an Idempotency-Key matched: the original response, answered again. */
  replayed?: boolean;
}

export const created = (data: unknown, { location, replayed }: CreatedOptions = {}): APIGatewayProxyResult => ({
  statusCode: 201,
  headers: {
    ...JSON_HEADERS,
    ...(location ? { Location: location } : {}),
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  },
  body: JSON.stringify({ data }),
});

const emptyObject = (value: unknown) => value ?? {};

/** Header names arrive in any case; domain code reads them lower-cased. */
function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** Maps every failure to RFC 7807; unexpected ones are answered without internals. */
const problemErrors = (): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const { error, event } = request;
    const instance = event.path;
    if (error instanceof ProblemError) {
      request.response = problemResponse(problem(error.status, error.kind, error.message, instance, error.extensions));
      return;
    }
    // The media type was checked before the body parser ran, so the parser fails only on the JSON itself.
    if ((error as { statusCode?: number } | null)?.statusCode === 415) {
      request.response = problemResponse(problem(400, 'malformed-json', 'The request body is not valid JSON', instance));
      return;
    }
    // The request line logs the error with its stack (observability.ts).
    request.response = problemResponse(
      problem(500, 'internal', 'The server could not complete the request; it is safe to retry', instance),
    );
  },
});

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

/**
 * Admits JSON bodies only. Media types are case-insensitive, and so are
 * header names: the body parser after this sees one lower-cased header.
 */
const jsonContentType = (): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const headers = lowerCaseHeaders(request.event.headers);
    const contentType = headers['content-type']?.toLowerCase().trim() ?? '';
    if (!JSON_MEDIA_TYPE.test(contentType.split(';')[0].trim())) {
      throw new UnsupportedMediaTypeError("The request body must be sent with 'Content-Type: application/json'");
    }
    request.event.headers = { ...headers, 'content-type': contentType };
  },
});

/**
 * The one way to build an HTTP handler: parse the JSON body (when the route
 * takes one), validate path, query and body against schemas compiled at
 * load, hand the typed request to `fn`, and render every error as a problem.
 */
export function httpHandler<P = Record<string, string>, Q = Record<string, string | undefined>, B = undefined>(
  schemas: RequestSchemas,
  fn: (request: HttpRequest<P, Q, B>) => Promise<APIGatewayProxyResult>,
) {
  const validatePath: Validator<P> = schemas.path
    ? compileValidator<P>(schemas.path, { field: 'Path parameter', whole: 'The path' }, BadRequestError)
    : (value) => value as P;
  const validateQuery: Validator<Q> = schemas.query
    ? compileValidator<Q>(schemas.query, { field: 'Query parameter', whole: 'The query' }, ValidationError)
    : (value) => value as Q;
  const validateBody: Validator<B> = schemas.body
    ? compileValidator<B>(schemas.body, { field: 'Field', whole: 'The request body' }, ValidationError)
    : (value) => value as B;

  // Observability first: it sees the request before anything can fail, and the final answer after the problem middleware.
  const handler = middy<ParsedEvent, APIGatewayProxyResult>().use(observedRequests()).handler(async (event) =>
    fn({
      caller: fromAuthorizerContext(event.requestContext?.authorizer),
      path: validatePath(emptyObject(event.pathParameters)),
      query: validateQuery(emptyObject(event.queryStringParameters)),
      body: validateBody(event.body),
      headers: lowerCaseHeaders(event.headers),
      event: event as unknown as APIGatewayProxyEvent,
    }),
  );
  if (schemas.body) handler.use(jsonContentType()).use(httpJsonBodyParser());
  // The schemas travel with the handler, so the OpenAPI document (lib/openapi.ts) is built from the very objects that validate.
  return Object.assign(handler.use(problemErrors()), { schemas });
}
