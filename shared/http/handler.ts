import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { SchemaObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { RequestSchemas } from '../api/routes';
import type { Caller } from '../core/caller';
import { compileValidator, type Validator } from '../core/validation';
import { fromAuthorizerContext } from './caller';
import { MalformedJsonError, problemOutline, UnsupportedMediaTypeError, type RequestFields } from './errors';
import { numbersAsSent } from './numbers-as-sent';
import { observedRequests } from './observability';
import { problem, problemResponse } from './problem';

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

/** A success with nothing to say (DELETE). */
export const noContent = (): APIGatewayProxyResult => ({ statusCode: 204, headers: {}, body: '' });

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

/**
 * Header names arrive in any case; domain code reads them lower-cased. The
 * client names the keys, so the map has no prototype: a header called
 * `constructor` or `__proto__` is a header like any other, never an inherited member.
 */
function lowerCaseHeaders(headers: APIGatewayProxyEvent['headers']): Record<string, string | undefined> {
  const lowerCased: Record<string, string | undefined> = Object.create(null);
  for (const [name, value] of Object.entries(headers ?? {})) lowerCased[name.toLowerCase()] = value;
  return lowerCased;
}

/** Query parameters as a map without a prototype, for the same reason. */
const queryParameters = (query: APIGatewayProxyEvent['queryStringParameters']): Record<string, string | undefined> =>
  Object.assign(Object.create(null), query);

const propertyNames = (schema: SchemaObject | undefined): ReadonlySet<string> => new Set(Object.keys(schema?.properties ?? {}));

/** Maps every failure to RFC 7807; unexpected ones are answered without internals. */
const problemErrors = (fields: RequestFields): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const { event } = request;
    const instance = event.path;
    // The media type was checked before the body parser ran, so the parser fails only on the JSON itself.
    const error = (request.error as { statusCode?: number } | null)?.statusCode === 415 ? new MalformedJsonError() : request.error;
    const outline = problemOutline(error, fields);
    if (outline) {
      request.response = problemResponse(problem(outline.status, outline.kind, outline.detail, instance, outline.extensions));
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
      throw new UnsupportedMediaTypeError();
    }
    headers['content-type'] = contentType;
    request.event.headers = headers;
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
  const validatePath: Validator<P> = schemas.path ? compileValidator<P>(schemas.path, 'The path') : (value) => value as P;
  const validateQuery: Validator<Q> = schemas.query ? compileValidator<Q>(schemas.query, 'The query') : (value) => value as Q;
  const validateBody: Validator<B> = schemas.body ? compileValidator<B>(schemas.body, 'The request body') : (value) => value as B;
  const fields: RequestFields = { path: propertyNames(schemas.path), query: propertyNames(schemas.query) };

  // Observability first: it sees the request before anything can fail, and the final answer after the problem middleware.
  const handler = middy<ParsedEvent, APIGatewayProxyResult>()
    .use(observedRequests())
    .handler(async (event) =>
      fn({
        caller: fromAuthorizerContext(event.requestContext?.authorizer),
        path: validatePath(emptyObject(event.pathParameters)),
        query: validateQuery(queryParameters(event.queryStringParameters)),
        body: validateBody(event.body),
        headers: lowerCaseHeaders(event.headers),
        event: event as unknown as APIGatewayProxyEvent,
      }),
    );
  if (schemas.body) handler.use(jsonContentType()).use(numbersAsSent(schemas.body)).use(httpJsonBodyParser());
  // The schemas travel with the handler, so the OpenAPI document (shared/api/openapi.ts) is built from the very objects that validate.
  return Object.assign(handler.use(problemErrors(fields)), { schemas });
}
