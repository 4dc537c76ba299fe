import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { SchemaObject } from 'ajv';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { RequestSchemas } from '../api/routes';
import type { Caller } from '../core/caller';
import { ValidationError } from '../core/errors';
import { compileValidator, type Validator } from '../core/validation';
import { fromAuthorizerContext } from './caller';
import { MalformedJsonError, problemOutline, UnsupportedMediaTypeError, type RequestFields } from './errors';
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

/** The query properties that are objects: sent in OpenAPI's deepObject style, `filter[Region]=eu-west`. */
const deepObjectNames = (schema: SchemaObject | undefined): string[] =>
  Object.entries((schema?.properties ?? {}) as Record<string, SchemaObject>)
    .filter(([, property]) => property.type === 'object')
    .map(([name]) => name);

/**
 * Gathers deepObject parameters into one object per property, as API Gateway
 * hands them over flat (`filter[Region]` is a parameter's name), so that the
 * schema checks keys and values alike. A name that starts like one (in any
 * case) but is not exactly `name[key]` is refused by name rather than
 * ignored as an unknown parameter would be: a filter that silently did not
 * apply would answer wrong totals. The objects have no prototype, so
 * `filter[__proto__]` is a key like any other (which the schema then refuses).
 */
function gatherDeepObjects(query: Record<string, string | undefined>, names: string[]): Record<string, unknown> {
  if (!names.length) return query;
  const gathered: Record<string, unknown> = Object.create(null);
  const objects: Record<string, Record<string, string | undefined>> = Object.create(null);
  for (const [parameter, value] of Object.entries(query)) {
    const owner = names.find((name) => parameter.toLowerCase().startsWith(`${name.toLowerCase()}[`));
    if (!owner) {
      gathered[parameter] = value;
      continue;
    }
    if (!parameter.startsWith(owner)) {
      throw new ValidationError(`cannot be sent as '${parameter}': parameter names are case-sensitive`, { field: owner });
    }
    const key = parameter.endsWith(']') ? parameter.slice(owner.length + 1, -1) : undefined;
    if (key === undefined || /[[\]]/.test(key))
      throw new ValidationError(`is not a parameter of the form ${owner}[Key]`, { field: parameter });
    (objects[owner] ??= Object.create(null))[key] = value;
  }
  // `filter=...` beside `filter[Key]=...` is left as sent, for the schema to refuse.
  for (const [name, object] of Object.entries(objects)) gathered[name] ??= object;
  return gathered;
}

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
  const validateQuery: Validator<Q> = schemas.query ? compileValidator<Q>(schemas.query, 'The query', 'deepObject') : (value) => value as Q;
  const validateBody: Validator<B> = schemas.body ? compileValidator<B>(schemas.body, 'The request body') : (value) => value as B;
  const fields: RequestFields = { path: propertyNames(schemas.path), query: propertyNames(schemas.query) };
  const deepObjects = deepObjectNames(schemas.query);

  // Observability first: it sees the request before anything can fail, and the final answer after the problem middleware.
  const handler = middy<ParsedEvent, APIGatewayProxyResult>()
    .use(observedRequests())
    .handler(async (event) =>
      fn({
        caller: fromAuthorizerContext(event.requestContext?.authorizer),
        path: validatePath(emptyObject(event.pathParameters)),
        query: validateQuery(gatherDeepObjects(queryParameters(event.queryStringParameters), deepObjects)),
        body: validateBody(event.body),
        headers: lowerCaseHeaders(event.headers),
        event: event as unknown as APIGatewayProxyEvent,
      }),
    );
  if (schemas.body) handler.use(jsonContentType()).use(httpJsonBodyParser());
  // The schemas travel with the handler, so the OpenAPI document (shared/api/openapi.ts) is built from the very objects that validate.
  return Object.assign(handler.use(problemErrors(fields)), { schemas });
}
