import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { RequestOf } from '../api/operations';
import type { RouteId } from '../api/routes';
import type { Caller } from '../core/caller';
import { ValidationError } from '../core/errors';
import { checkedBy, type FieldNaming, type GeneratedValidator, type Validator } from '../core/validation';
import { fromAuthorizerContext } from './caller';
import { MalformedJsonError, UnsupportedMediaTypeError, type RequestFields } from './errors';
import { noteFailure, observed } from '../core/observability';
import { logReceived, requestLine } from './observability';
import { numbersAsSent, numbersNotAsSent } from './numbers-as-sent';

export interface HttpRequest<R extends { path: unknown; query: unknown; body: unknown }> {
  caller: Caller;
  path: R['path'];
  query: R['query'];
  body: R['body'];
  headers: Record<string, string | undefined>;
  event: APIGatewayProxyEvent;
  /** What is left of the function's time (Lambda's context), for work that stops in time and is carried on later. */
  remainingMs: () => number;
}

type ParsedEvent = Omit<APIGatewayProxyEvent, 'body'> & { body: unknown };

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** `replayed`: an Idempotency-Key matched, and this is the original response again. */
export const ok = (data: unknown, { replayed = false } = {}): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: { ...JSON_HEADERS, ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
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

/**
 * Gathers deepObject parameters into one object per property, as API Gateway
 * hands them over flat (`filter[Region]` is a parameter's name), so that the
 * schema checks keys and values alike. A name that starts like one (in any
 * case) but is not exactly `name[key]` is refused by name rather than
 * ignored as an unknown parameter would be: a filter that silently did not
 * apply would answer wrong totals. The objects have no prototype, so
 * `filter[__proto__]` is a key like any other (which the schema then refuses).
 */
function gatherDeepObjects(query: Record<string, string | undefined>, names: readonly string[]): Record<string, unknown> {
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

/** A route's generated validators (shared/api/validators/<route>.generated.ts): one per part of the request it takes. */
export interface RouteValidators<Id extends RouteId> {
  route: Id;
  /**
   * The names of the path and query parameters, to say where a field the domain names was sent, and of the query
   * parameters that are objects, sent in OpenAPI's deepObject style (`filter[Region]=eu-west`).
   */
  fields: { path: readonly string[]; query: readonly string[]; deepObjects: readonly string[] };
  path?: GeneratedValidator;
  query?: GeneratedValidator;
  body?: GeneratedValidator;
  /** The rule of every number the body holds, by field, for refusing one not read as written. */
  numberRules?: Readonly<Record<string, string>>;
}

const checked = <T>(validate: GeneratedValidator | undefined, whole: string, naming?: FieldNaming): Validator<T> =>
  validate ? checkedBy<T>(validate, whole, naming) : (value) => value as T;

/**
 * How a family of routes speaks: how it answers a failure, and whether a
 * body its route takes may be left out. The marketplace, usage and operator
 * routes answer RFC 7807 problems (`problemFace`, problem-face.ts); the OCTo routes answer
 * OCTo's error bodies (shared/octo).
 */
export interface HttpFace {
  /**
   * The answer to a failed request: `error` is what was thrown (a domain
   * error, MalformedJsonError or UnsupportedMediaTypeError, or anything
   * unexpected, which is answered without internals: the request line logs
   * it with its stack, shared/core/observability.ts).
   */
  failure(error: unknown, request: { event: ParsedEvent; fields: RequestFields }): APIGatewayProxyResult;
  /** A request without a body is taken as an empty JSON object (routes whose body fields are all optional). */
  bodyOptional?: boolean;
}

export type { ParsedEvent };

/** Answers every failure in the route's face. */
const failures = (face: HttpFace, fields: RequestFields): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    // The media type was checked before the body parser ran, so the parser fails only on the JSON itself.
    const error = (request.error as { statusCode?: number } | null)?.statusCode === 415 ? new MalformedJsonError() : request.error;
    request.response = face.failure(error, { event: request.event, fields });
    // The request line logs an unexpected error with its stack (shared/core/observability.ts).
    if (request.response.statusCode >= 500) noteFailure(request.error);
  },
});

/** In a face whose bodies are optional, no body at all is an empty object (a body sent is still read as JSON). */
const absentBodyAsObject = (): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const { body } = request.event;
    if (body === null || body === undefined || body === '') {
      request.event.body = '{}';
      request.event.headers = { ...lowerCaseHeaders(request.event.headers), 'content-type': 'application/json' };
    }
  },
});

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json$/;

/**
 * Admits JSON bodies only. Media types are case-insensitive, and so are
 * header names, and a parameter may follow spaces: the body parser after
 * this sees one lower-cased header holding the media type alone.
 */
const jsonContentType = (): MiddlewareObj<ParsedEvent, APIGatewayProxyResult> => ({
  before: (request) => {
    const headers = lowerCaseHeaders(request.event.headers);
    const mediaType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!JSON_MEDIA_TYPE.test(mediaType)) throw new UnsupportedMediaTypeError();
    headers['content-type'] = mediaType;
    request.event.headers = headers;
  },
});

/**
 * The one way to build an HTTP handler: parse the JSON body (when the route
 * takes one), validate path, query and body with the route's validators
 * (generated ahead of time from its schemas, so nothing is compiled at a
 * cold start), hand the request, typed from the same schemas, to `fn`, and
 * answer every error in the route's face (`problemFace`, or OCTo's).
 */
export function httpHandler<Id extends RouteId>(
  validators: RouteValidators<Id>,
  fn: (request: HttpRequest<RequestOf<Id>>) => Promise<APIGatewayProxyResult>,
  face: HttpFace,
) {
  type Request = RequestOf<Id>;
  const validatePath = checked<Request['path']>(validators.path, 'The path');
  const validateQuery = checked<Request['query']>(validators.query, 'The query', 'deepObject');
  const validateBody = checked<Request['body']>(validators.body, 'The request body');
  const fields: RequestFields = { path: new Set(validators.fields.path), query: new Set(validators.fields.query) };

  const handler = middy<ParsedEvent, APIGatewayProxyResult>()
    .before((request) => logReceived(request.event))
    .handler(async (event, context) =>
      fn({
        caller: fromAuthorizerContext(event.requestContext?.authorizer),
        path: validatePath(emptyObject(event.pathParameters)),
        query: validateQuery(gatherDeepObjects(queryParameters(event.queryStringParameters), validators.fields.deepObjects)),
        body: validateBody(event.body, numbersNotAsSent(event)),
        headers: lowerCaseHeaders(event.headers),
        event: event as unknown as APIGatewayProxyEvent,
        remainingMs: () => context.getRemainingTimeInMillis(),
      }),
    );
  if (validators.body) {
    if (face.bodyOptional) handler.use(absentBodyAsObject());
    handler
      .use(jsonContentType())
      .use(numbersAsSent(validators.numberRules ?? {}))
      .use(httpJsonBodyParser());
  }
  handler.use(failures(face, fields));
  // Observed around everything: it sees the request before anything can fail, and the final answer after the face's failure middleware.
  // The route travels with the handler, so a test can hold each function to the validators of its own route.
  return Object.assign(observed(requestLine(validators.route), handler), { route: validators.route });
}
