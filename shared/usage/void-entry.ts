import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { NotFoundError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { transactionCancellation } from '../db/transaction-errors';
import { shardOf } from './ids';
import type { VoidedUsageEntry } from './schemas';
import { AGGREGATE_SHARDS } from './model';
import { getEntry, writeTransaction } from './repository';
import { voidEntryTransaction } from './usage-writes';

/**
 * Voids one entry of an operator: in one transaction the entry is marked
 * VoidedAt (kept, for audit) and taken back out of its hour, day and month
 * aggregates, the totals of its dimensions included. The transaction's
 * condition lets only one void through, so voiding again, or twice at once,
 * answers the entry as voided and takes nothing out twice.
 */
export async function voidUsageEntry(operatorId: string, idText: string, now: Date = config().clock()): Promise<VoidedUsageEntry> {
  const id = Number(idText);
  // IDs are safe integers: a larger number names no entry (and would round onto another ID).
  if (!Number.isSafeInteger(id)) throw new NotFoundError(`Usage entry ${idText} does not exist`);
  const shard = shardOf(id, AGGREGATE_SHARDS);
  return retrying('Voiding a usage entry', async () => {
    const stored = await getEntry(operatorId, shard, id);
    // Another operator's entry lives under that operator's keys: it does not exist for this one.
    if (!stored) throw new NotFoundError(`Usage entry ${id} does not exist`);
    const entry = {
      ID: stored.ID,
      Meter: stored.Meter,
      Usage: stored.Usage,
      OccurredAt: stored.OccurredAt,
      ...(stored.Dimensions ? { Dimensions: stored.Dimensions } : {}),
    };
    if (stored.VoidedAt !== undefined) return { ...entry, VoidedAt: stored.VoidedAt };
    const voidedAt = unixSeconds(now);
    try {
      // Out of every total it was in: its meter's, and its dimensions' combination's.
      await writeTransaction(voidEntryTransaction(operatorId, shard, { ...entry, Combination: stored.Combination }, voidedAt));
      countBusinessEvent('UsageEntries', 'voided', operatorId);
      return { ...entry, VoidedAt: voidedAt };
    } catch (error) {
      const cancellation = transactionCancellation(error);
      // Voided meanwhile, or an item held by a racing transaction: read again.
      if (cancellation && (cancellation.conditionFailed(0) || cancellation.retryable)) return RETRY;
      throw error;
    }
  });
}
