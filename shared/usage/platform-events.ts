import type { EventBridgeEvent } from 'aws-lambda';
import { BUILT_IN_METERS, OPERATOR_FIELD, type BuiltInMeter } from './built-in-meters';
import { getOperator, OPERATOR_ID_PATTERN } from '../accounts/operators';
import { recordUsage, type RecordedUsage } from './record-usage';
import { MAX_OCCURRED_AT } from './model';

/** An event that can never be recorded; thrown so the delivery fails and ends in the dead-letter queue. */
export class UnrecordablePlatformEvent extends Error {
  /** No retry can record it: it is bound for the dead-letter queue. */
  readonly retryable = false;

  constructor(reason: string) {
    super(reason);
    this.name = 'UnrecordablePlatformEvent';
  }
}

const isIdentifier = (value: unknown): value is string | number =>
  (typeof value === 'string' && value.length > 0 && value.length <= 128) || (Number.isSafeInteger(value) && (value as number) >= 0);

/**
 * Records the built-in meter entry of one platform event: Usage 1 at the
 * event's time, for the operator the event names, with the meter's detail
 * fields as ExtraInfo. `meter` is the one the event's rule feeds, undefined
 * when no rule matches it. The event's ID is the idempotency key, so a
 * redelivered event counts once.
 */
export async function recordPlatformEvent(
  event: EventBridgeEvent<string, unknown>,
  meter: BuiltInMeter | undefined,
): Promise<RecordedUsage> {
  if (!meter) throw new UnrecordablePlatformEvent('No rule matches the source and detail-type');
  const { extraInfoFields } = BUILT_IN_METERS[meter];
  if (typeof event.id !== 'string' || !event.id) throw new UnrecordablePlatformEvent('The event has no id');
  const occurredAtMs = typeof event.time === 'string' ? Date.parse(event.time) : Number.NaN;
  if (!Number.isFinite(occurredAtMs) || occurredAtMs < 0 || occurredAtMs / 1000 > MAX_OCCURRED_AT) {
    throw new UnrecordablePlatformEvent('The event time is not an ISO 8601 instant from 1970 through 9998');
  }
  const detail = event.detail as Record<string, unknown> | null;
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) {
    throw new UnrecordablePlatformEvent('The detail is not an object');
  }
  const operatorId = detail[OPERATOR_FIELD];
  if (typeof operatorId !== 'string' || !OPERATOR_ID_PATTERN.test(operatorId)) {
    throw new UnrecordablePlatformEvent(`detail.${OPERATOR_FIELD} is missing or not an operator ID`);
  }
  const missing = extraInfoFields.filter((field) => !isIdentifier(detail[field]));
  if (missing.length) throw new UnrecordablePlatformEvent(`detail.${missing.join(', detail.')} missing or not an identifier`);
  // Retrying cannot make an unknown operator known; the dead-letter queue keeps the event for a redrive.
  if (!(await getOperator(operatorId))) throw new UnrecordablePlatformEvent(`Operator '${operatorId}' does not exist`);

  const extraInfo = extraInfoFields.length
    ? JSON.stringify(Object.fromEntries(extraInfoFields.map((field) => [field, detail[field]])))
    : undefined;
  return recordUsage(
    operatorId,
    { Meter: meter, Usage: 1, OccurredAt: Math.floor(occurredAtMs / 1000), ...(extraInfo ? { ExtraInfo: extraInfo } : {}) },
    // The event ID is the idempotency key, kept apart from clients' keys (see usageKeys.idempotencyRecord).
    { idempotencyKey: event.id, builtIn: true },
  );
}
