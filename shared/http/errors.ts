/**
 * Typed errors thrown by domain code. One middleware turns each into an
 * RFC 7807 problem; `kind` is the last segment of the problem type URI.
 */
export abstract class ProblemError extends Error {
  abstract readonly status: number;
  abstract readonly kind: string;
  readonly extensions?: Record<string, unknown>;

  constructor(detail: string, extensions?: Record<string, unknown>) {
    super(detail);
    this.name = new.target.name;
    this.extensions = extensions;
  }
}

/** A malformed path parameter, or a request whose parameters contradict each other. */
export class BadRequestError extends ProblemError {
  readonly status = 400;
  readonly kind = 'bad-request';
}

export class NotFoundError extends ProblemError {
  readonly status = 404;
  readonly kind = 'not-found';
}

export class ConflictError extends ProblemError {
  readonly status = 409;
  readonly kind = 'conflict';
}

export class CapacityError extends ProblemError {
  readonly status = 409;
  readonly kind = 'insufficient-capacity';
}

export class UnsupportedMediaTypeError extends ProblemError {
  readonly status = 415;
  readonly kind = 'unsupported-media-type';
}

/** Missing or invalid query parameters or body fields; the detail names which. */
export class ValidationError extends ProblemError {
  readonly status = 422;
  readonly kind = 'validation';
}
