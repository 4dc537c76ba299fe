import {
  CapacityError,
  ConflictError,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  NotFoundError,
  ValidationError,
} from '../../shared/core/errors';
import { MalformedJsonError, clientProblemFor, UnsupportedMediaTypeError } from '../../shared/http/errors';
import { NoWebhookEndpointError } from '../../shared/webhooks/errors';

describe('domain errors become problems in one place', () => {
  const fields = { path: new Set(['ActivityID']), query: new Set(['from', 'to']) };

  it('says where a field was sent, and makes a bad path parameter a 400', () => {
    expect(clientProblemFor(new ValidationError('must be odd', { field: 'ActivityID' }), fields)).toEqual({
      status: 400,
      kind: 'bad-request',
      detail: "Path parameter 'ActivityID' must be odd",
    });
    expect(clientProblemFor(new ValidationError("must not be before 'from'", { field: 'to' }), fields)).toEqual({
      status: 422,
      kind: 'validation',
      detail: "Query parameter 'to' must not be before 'from'",
    });
    expect(clientProblemFor(new ValidationError('must be an email address', { field: 'Customer.Email' }), fields)?.detail).toBe(
      "Field 'Customer.Email' must be an email address",
    );
    expect(clientProblemFor(new ValidationError('must be ASCII', { field: 'Idempotency-Key' }), fields)?.detail).toBe(
      "Header 'Idempotency-Key' must be ASCII",
    );
  });

  it('keeps a message without a field as it is, with its extensions', () => {
    const clientProblem = clientProblemFor(new ValidationError('lacks q_1', { extensions: { missingQuestions: ['q_1'] } }));
    expect(clientProblem).toEqual({ status: 422, kind: 'validation', detail: 'lacks q_1', extensions: { missingQuestions: ['q_1'] } });
  });

  it.each([
    [new InvalidRequestError('Give exactly one'), 400, 'bad-request'],
    [new NotFoundError('No such thing'), 404, 'not-found'],
    [new ConflictError('Too late'), 409, 'conflict'],
    [new CapacityError('Full'), 409, 'insufficient-capacity'],
    [new IdempotencyKeyReusedError('was already used'), 422, 'validation'],
    [new UnsupportedMediaTypeError(), 415, 'unsupported-media-type'],
    [new MalformedJsonError(), 400, 'malformed-json'],
  ])('%p is %i %s', (error, status, kind) => {
    expect(clientProblemFor(error)).toMatchObject({ status, kind });
  });

  it('a 409 of a new kind carries its own reason', () => {
    class HoldExpired extends ConflictError {
      override readonly reason = 'hold-expired';
    }
    expect(clientProblemFor(new HoldExpired('The hold has expired'))).toMatchObject({ status: 409, kind: 'hold-expired' });
  });

  it("says what the client does next in HTTP's terms, after the domain's own words", () => {
    const [partner, operator] = [NoWebhookEndpointError.of(false), NoWebhookEndpointError.of(true)];
    expect([partner.message, operator.message]).toEqual([
      'This API key has no webhook endpoint',
      'This operator has no usage webhook endpoint',
    ]);
    expect([clientProblemFor(partner), clientProblemFor(operator)]).toEqual([
      { status: 404, kind: 'not-found', detail: 'This API key has no webhook endpoint; register one with PUT' },
      { status: 404, kind: 'not-found', detail: 'This operator has no usage webhook endpoint; register one with PUT' },
    ]);
    // Another thing not found has no such step.
    expect(clientProblemFor(new NotFoundError('No such thing'))?.detail).toBe('No such thing');
  });

  it('leaves anything else to the 500 path, which shows no internals', () => {
    expect(clientProblemFor(new Error('connection reset by peer'))).toBeUndefined();
    expect(clientProblemFor('a string')).toBeUndefined();
  });
});
