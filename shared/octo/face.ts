import type { APIGatewayProxyResult } from 'aws-lambda';
import { ConfirmedAlreadyError } from '../booking/errors';
import {
  ConflictError,
  DomainError,
  IdempotencyKeyReusedError,
  UnprocessableError,
  ValidationError,
  violationsOf,
  type Subject,
} from '../core/errors';
import { describeError, MalformedJsonError, UnsupportedMediaTypeError } from '../http/errors';
import type { HttpFace } from '../http/handler';
import type { OctoErrorBody } from './schemas/answers';

/**
 * How the OCTo routes speak: every success is 200 with the bare OCTo
 * object (no envelope) and the `Octo-Capabilities` it applied; every failure
 * is OCTo's error body, `{ error, errorMessage }` with the unknown ID echoed
 * for INVALID_*_ID. A client fault is 400 whatever its kind (OCTo's rule; an
 * unknown ID is never a 404), an unexpected failure 500 without internals.
 */

/** The capabilities this service implements; a request may name others, which are ignored. */
export const SUPPORTED_CAPABILITIES = ['octo/pricing', 'octo/notifications'] as const;
export type Capability = (typeof SUPPORTED_CAPABILITIES)[number];

/** The capabilities a request asks for (`Octo-Capabilities: octo/pricing, octo/content`) that the service has. */
export function requestedCapabilities(headers: Record<string, string | undefined>): Capability[] {
  const named = (headers['octo-capabilities'] ?? '').split(',').map((name) => name.trim());
  return SUPPORTED_CAPABILITIES.filter((capability) => named.includes(capability));
}

/** The 200 of every OCTo route: the OCTo object as it is, and the capabilities applied to it. */
export const octoOk = (body: unknown, capabilities: readonly Capability[]): APIGatewayProxyResult => ({
  statusCode: 200,
  headers: { 'Content-Type': 'application/json', 'Octo-Capabilities': capabilities.join(', ') },
  body: JSON.stringify(body),
});

/** The request field that carries the ID of each kind of thing, as OCTo names it. */
const ECHO: Record<Subject, { code: OctoErrorBody['error']; field: 'productId' | 'optionId' | 'unitId' | 'availabilityId' | 'uuid' }> = {
  product: { code: 'INVALID_PRODUCT_ID', field: 'productId' },
  option: { code: 'INVALID_OPTION_ID', field: 'optionId' },
  unit: { code: 'INVALID_UNIT_ID', field: 'unitId' },
  timeslot: { code: 'INVALID_AVAILABILITY_ID', field: 'availabilityId' },
  booking: { code: 'INVALID_BOOKING_UUID', field: 'uuid' },
};

/** The domain's names of what a request carries, as OCTo's requests name them (a party's size is its unit items). */
const OCTO_NAMES: Record<string, string> = {
  UUID: 'uuid',
  ActivityID: 'productId',
  OptionID: 'optionId',
  Timeslot: 'availabilityId',
  UnitItems: 'unitItems',
  UnitID: 'unitId',
  Participants: 'unitItems',
  HoldMinutes: 'expirationMinutes',
  Days: 'localDateEnd',
  Units: 'units',
  Url: 'url',
  Headers: 'headers',
  NotificationTypes: 'notificationTypes',
};

/** A field the domain names (`UnitItems[2].UnitID`), as OCTo names it (`unitItems[2].unitId`). */
export const octoField = (field: string): string => field.replace(/[A-Za-z]+/g, (name) => OCTO_NAMES[name] ?? name);

const UNKNOWN: Record<Subject, (id: string) => string> = {
  product: (id) => `The productId '${id}' is not a product of this supplier`,
  option: (id) => `The optionId '${id}' is not an option of the product; every product has the one option 'DEFAULT'`,
  unit: (id) => `The unitId '${id}' is not a unit of the product`,
  timeslot: (id) => `The availabilityId '${id}' is not an availability of the product that is open for sale`,
  booking: (id) => `No booking of this API key has the uuid '${id}'`,
};

/** What the client does next, in OCTo's HTTP terms, after the domain's own words: by the refusal's class. */
const nextStep = (error: DomainError): string => (error instanceof ConfirmedAlreadyError ? '; change it with PATCH' : '');

export const octoError = (status: number, body: OctoErrorBody): APIGatewayProxyResult => ({
  statusCode: status,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The value the request sent for `field`, from its path, query or (parsed) body. */
function sent(event: Parameters<HttpFace['failure']>[1]['event'], field: string): string | undefined {
  const body = event.body && typeof event.body === 'object' ? (event.body as Record<string, unknown>) : {};
  const value = event.pathParameters?.[field] ?? event.queryStringParameters?.[field] ?? body[field];
  return typeof value === 'string' ? value : undefined;
}

export function octoBodyOf(error: unknown, request: Parameters<HttpFace['failure']>[1]): { status: number; body: OctoErrorBody } {
  if (error instanceof UnsupportedMediaTypeError || error instanceof MalformedJsonError) {
    return { status: 400, body: { error: 'BAD_REQUEST', errorMessage: error.message } };
  }
  if (!(error instanceof DomainError)) {
    return {
      status: 500,
      body: { error: 'INTERNAL_SERVER_ERROR', errorMessage: 'The server could not complete the request; it is safe to retry' },
    };
  }
  if (error.subject) {
    const { code, field } = ECHO[error.subject];
    const id = error.value ?? sent(request.event, field) ?? '';
    const reused = error instanceof IdempotencyKeyReusedError;
    const errorMessage = reused ? `The uuid '${id}' ${error.message}` : `${UNKNOWN[error.subject](id)}: ${error.message}`;
    return { status: 400, body: { error: code, errorMessage, [field]: id } };
  }
  const code = error instanceof UnprocessableError || error instanceof ConflictError ? 'UNPROCESSABLE_ENTITY' : 'BAD_REQUEST';
  // OCTo's body has no list of faults: each field at fault is said in the one message.
  const violations = violationsOf(error);
  const errorMessage =
    violations.length > 1
      ? violations.map(({ field, message }) => describeError(new ValidationError(message, { field }), request.fields, octoField)).join('; ')
      : describeError(error, request.fields, octoField);
  return { status: 400, body: { error: code, errorMessage: `${errorMessage}${nextStep(error)}` } };
}

export const octoFace: HttpFace = {
  failure: (error, request) => {
    const { status, body } = octoBodyOf(error, request);
    return octoError(status, body);
  },
  // OCTo's bodies of confirm, extend, cancel and update are all optional: none at all is `{}`.
  bodyOptional: true,
};
