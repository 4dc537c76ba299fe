/**
 * Errors of the domain: what went wrong, in the domain's words, with no
 * HTTP status. `field` names the input at fault (a request field, a query
 * parameter, an idempotency key); the message is the rule it broke, written
 * to follow the field's name ("must be a whole number from 1 to 10000").
 * shared/http maps each class to a status and says where the field was sent.
 */
export interface DomainErrorOptions {
  /** The input at fault, as the caller named it (`Participants`, `Customer.Email`, `Entries[3].Usage`). */
  field?: string;
  /** Extra members of the problem document (e.g. the missing questions). */
  extensions?: Record<string, unknown>;
  /** What kind of thing the request named that is unknown or refused, for faces that say so by code (OCTo's INVALID_*_ID). */
  subject?: Subject;
  /** The offending input as the caller sent it (an unknown ID), for faces that echo it back. */
  value?: string;
}

/** The things a request names by ID. */
export type Subject = 'product' | 'option' | 'unit' | 'timeslot' | 'booking';

export abstract class DomainError extends Error {
  readonly field?: string;
  readonly extensions?: Record<string, unknown>;
  readonly subject?: Subject;
  readonly value?: string;

  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.field = options.field;
    this.extensions = options.extensions;
    this.subject = options.subject;
    this.value = options.value;
  }
}

/** An input breaks a rule. */
export class ValidationError extends DomainError {}

/** One input and the rule it broke. */
export interface FieldViolation {
  field: string;
  message: string;
}

/** One error naming every input at fault: the first in its message (with a count of the others), all of them in `errors`. */
export function everyViolation(violations: FieldViolation[]): ValidationError {
  const [first, ...others] = violations;
  const more = others.length ? ` (and ${others.length} more: ${others.map((other) => other.field).join(', ')}; see errors)` : '';
  return new ValidationError(`${first.message}${more}`, {
    field: first.field,
    extensions: { errors: violations.map(({ field, message }) => ({ field, detail: message })) },
  });
}

/** Every input an error names with the rule it broke: those of everyViolation, or its one field. */
export function violationsOf(error: DomainError): FieldViolation[] {
  const listed = error.extensions?.errors as { field: string; detail: string }[] | undefined;
  if (listed) return listed.map(({ field, detail }) => ({ field, message: detail }));
  return error.field === undefined ? [] : [{ field: error.field, message: error.message }];
}

/**
 * A well-formed request that the rules of what it asks for refuse (a party
 * over the activity's limit, a unit without the unit it must come with):
 * the request is right in form, and wrong for this product.
 */
export class UnprocessableError extends ValidationError {}

/** The request's inputs contradict each other (e.g. both or neither of two alternatives). */
export class InvalidRequestError extends DomainError {}

/** The thing asked for does not exist for this caller (another operator's things do not exist for it). */
export class NotFoundError extends DomainError {}

/** The request is valid but the state of the thing it acts on refuses it; `reason` tells which refusal. */
export class ConflictError extends DomainError {
  readonly reason: string = 'conflict';
}

/**
 * The caller may not do this to this thing, whatever its request and its
 * key's scopes say: it is reserved to another actor (an administrator).
 * Nothing was changed; `reason` tells which refusal.
 */
export class ForbiddenError extends DomainError {
  readonly reason: string = 'forbidden';
}

/** What the request points at is no longer kept (a changes cursor past its retention); `reason` tells which. */
export class GoneError extends DomainError {
  readonly reason: string = 'gone';
}

/** A timeslot has fewer places left than asked for; nothing was written. */
export class CapacityError extends ConflictError {
  override readonly reason = 'insufficient-capacity';
}

/** An idempotency key came back with a different request than the one it first carried. */
export class IdempotencyKeyReusedError extends DomainError {}
