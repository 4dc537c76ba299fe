import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { builtInMeters } from '../api/event-rules';
import { countBusinessEvent } from '../core/metrics';
import { documentClient } from '../db/client';
import { ValidationError } from '../core/errors';
import { checkIdempotencyKey, idempotencyKeyReused, isLive } from '../core/idempotency';
import { numberPrecision } from './decimal';
import { MAX_USAGE_DECIMAL_PLACES, MAX_USAGE_SIGNIFICANT_DIGITS, USAGE_RULE, type UsageEntry, type UsageInput } from './model';
import { getIdempotencyRecord } from './repository';
import { prepareUsageRecord, usageRecordTransaction } from './usage-writes';

/** Attempts of one record call: ID collisions, transactions racing on the same key or aggregate, and throttling are retried. */
const MAX_ATTEMPTS = 6;

export interface RecordedUsage {
  entry: UsageEntry;
  /** True when an earlier request with the same idempotency key recorded the entry. */
  replayed: boolean;
}

/** The rules a schema cannot state: the precision of Usage, and meter names kept for platform events. */
function checkUsageInput(input: UsageInput, options: { builtIn?: boolean } = {}): void {
  const { significantDigits, decimalPlaces } = numberPrecision(input.Usage);
  if (decimalPlaces > MAX_USAGE_DECIMAL_PLACES || significantDigits > MAX_USAGE_SIGNIFICANT_DIGITS) {
    throw new ValidationError(USAGE_RULE, { field: 'Usage' });
  }
  // Case-insensitively, so that no custom meter can pass for a built-in one in a summary.
  if (!options.builtIn && builtInMeters.has(input.Meter.toLowerCase())) {
    throw new ValidationError(`names the built-in meter '${input.Meter}', which only platform events record`, { field: 'Meter' });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records one usage entry for an operator. With an idempotency key, the
 * first request records and every later one with the same key (concurrent
 * ones included) gets that first entry back without counting again; the same
 * key with different fields is a conflict.
 */
export async function recordUsage(
  operatorId: string,
  input: UsageInput,
  options: { idempotencyKey?: string; builtIn?: boolean } = {},
): Promise<RecordedUsage> {
  checkUsageInput(input, options);
  if (options.idempotencyKey !== undefined) checkIdempotencyKey(options.idempotencyKey);
  for (let attempt = 1; ; attempt += 1) {
    const record = prepareUsageRecord(operatorId, input, {
      idempotencyKey: options.idempotencyKey,
      origin: options.builtIn ? 'platform-event' : 'client',
    });
    try {
      await documentClient().send(new TransactWriteCommand(usageRecordTransaction(record)));
      countBusinessEvent('UsageEntries', 'recorded', operatorId);
      return { entry: record.entry, replayed: false };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = (error.CancellationReasons ?? []).map((reason) => reason.Code);
      const [idempotencyReason, entryReason] = record.idempotency ? reasons : [undefined, reasons[0]];
      if (record.idempotency && idempotencyReason === 'ConditionalCheckFailed') {
        const existing = await getIdempotencyRecord(operatorId, record.idempotency.origin, record.idempotency.keyHash);
        if (existing && isLive(existing, record.recordedAt)) {
          if (existing.RequestHash !== record.idempotency.requestHash) {
            throw idempotencyKeyReused(`usage entry ${existing.Entry.ID}`);
          }
          countBusinessEvent('UsageEntries', 'replayed', operatorId);
          return { entry: existing.Entry, replayed: true };
        }
        // The record expired between the write and this read: record afresh.
      } else {
        const retryable = entryReason === 'ConditionalCheckFailed' || reasons.includes('TransactionConflict') || reasons.includes('ThrottlingError');
        if (!retryable) throw error;
      }
      if (attempt >= MAX_ATTEMPTS) throw error;
      // An ID collision, a racing transaction holding one of the items, or a busy partition: try again shortly.
      await pause(10 * attempt + Math.random() * 20);
    }
  }
}
