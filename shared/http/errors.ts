import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  NotFoundError,
  ValidationError,
} from '../core/errors';
import { NoWebhookEndpointError } from '../webhooks/errors';

/**
 * The one place where errors become HTTP: each domain error class gets its
 * status and problem kind here, and a field the error names is said the way
 * the request carried it (path parameter, query parameter, header or body field).
 */

/** Errors of the HTTP layer itself: the request could not be read as the route takes it. */
export class UnsupportedMediaTypeError extends Error {
  constructor() {
    super("The request body must be sent with 'Content-Type: application/json'");
  }
}

export class MalformedJsonError extends Error {
  constructor() {
    super('The request body is not valid JSON');
  }
}

export interface ClientProblem {
  status: number;
  kind: string;
  detail: string;
  extensions?: Record<string, unknown>;
}

/** Where the fields of one route's request are sent. */
export interface RequestFields {
  path?: ReadonlySet<string>;
  query?: ReadonlySet<string>;
}

/** Request headers that domain errors may name. */
const HEADERS = new Set(['idempotency-key']);

function fieldLocation(field: string, fields: RequestFields): 'path' | 'query' | 'header' | 'body' {
  const top = field.split(/[.[]/)[0];
  if (fields.path?.has(top)) return 'path';
  if (fields.query?.has(top)) return 'query';
  if (HEADERS.has(field.toLowerCase())) return 'header';
  return 'body';
}

const LABELS = { path: 'Path parameter', query: 'Query parameter', header: 'Header', body: 'Field' } as const;

function statusAndKind(error: DomainError, location: ReturnType<typeof fieldLocation> | undefined): [number, string] {
  if (error instanceof ValidationError) return location === 'path' ? [400, 'bad-request'] : [422, 'validation'];
  if (error instanceof IdempotencyKeyReusedError) return [422, 'validation'];
  if (error instanceof InvalidRequestError) return [400, 'bad-request'];
  if (error instanceof ForbiddenError) return [403, error.reason];
  if (error instanceof NotFoundError) return [404, 'not-found'];
  if (error instanceof ConflictError) return [409, error.reason];
  if (error instanceof GoneError) return [410, error.reason];
  return [500, 'internal'];
}

/**
 * A domain error's words for the client: the field it names, said where the
 * request carried it, then the rule it broke. `nameOf` says the domain's name
 * of a field as the route's requests name it (OCTo's, by shared/octo/face.ts).
 */
export function describeError(error: DomainError, fields: RequestFields = {}, nameOf = (field: string) => field): string {
  const field = error.field === undefined ? undefined : nameOf(error.field);
  const location = field === undefined ? undefined : fieldLocation(field, fields);
  return location ? `${LABELS[location]} '${field}' ${error.message}` : error.message;
}

/** What the client does next, in HTTP's terms, after the domain's own words: by the refusal's class or reason. */
const nextStep = (error: DomainError): string => {
  if (error instanceof NoWebhookEndpointError) return '; register one with PUT';
  if (error instanceof ConflictError && error.reason === 'timeslot-exists') return '; change it with PATCH';
  return '';
};

/** The problem an error is answered with; undefined for errors that are not the client's (a 500). */
export function clientProblemFor(error: unknown, fields: RequestFields = {}): ClientProblem | undefined {
  if (error instanceof UnsupportedMediaTypeError) return { status: 415, kind: 'unsupported-media-type', detail: error.message };
  if (error instanceof MalformedJsonError) return { status: 400, kind: 'malformed-json', detail: error.message };
  if (!(error instanceof DomainError)) return undefined;
  const location = error.field === undefined ? undefined : fieldLocation(error.field, fields);
  const [status, kind] = statusAndKind(error, location);
  if (status === 500) return undefined;
  const detail = `${describeError(error, fields)}${nextStep(error)}`;
  return { status, kind, detail, ...(error.extensions ? { extensions: error.extensions } : {}) };
}
