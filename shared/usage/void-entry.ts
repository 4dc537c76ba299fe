import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { ForbiddenError, NotFoundError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { transactionCancellation } from '../db/transaction-errors';
import { isBuiltInMeter } from './built-in-meters';
import { shardOf } from './ids';
import type { VoidedUsageEntry } from './schemas';
import { AGGREGATE_SHARDS } from './model';
import { getEntry, writeTransaction } from './repository';
import { voidEntryTransaction } from './usage-writes';
import { limitWrites, makeGate } from './gates';
import { guardsOf } from './guards';
import { makeCounters } from './limit-counters';

/**
 * An entry of a built-in meter counts a platform event (an order, a
 * notification) that the platform bills for: the operator can no more take
 * it out than record it. Only an administrator voids one (the admin CLI),
 * for an event sent by mistake.
 */
export class BuiltInEntryError extends ForbiddenError {
  override readonly reason = 'built-in-entry';

  static of(entry: { ID: number; Meter: string }): BuiltInEntryError {
    return new BuiltInEntryError(
      `Usage entry ${entry.ID} is of the built-in meter '${entry.Meter}', recorded from a platform event: only the admin CLI voids it (void-usage-entry); nothing was changed`,
    );
  }
}

export interface VoidedEntry {
  entry: VoidedUsageEntry;
  /** False when it had been voided before: nothing changed. */
  voidedNow: boolean;
}

/**
 * Voids one entry of an operator: in one transaction the entry is marked
 * VoidedAt (kept, for audit) and taken back out of its hour, day and month
 * aggregates, the totals of its dimensions included, and out of the
 * counters and gates of its meter's limits that count it. The transaction's
 * condition lets only one void through, so voiding again, or twice at once,
 * answers the entry as voided and takes nothing out twice. An entry of a
 * built-in meter is refused unless `builtIn` says an administrator asks.
 */
export async function voidUsageEntry(
  operatorId: string,
  idText: string,
  options: { builtIn?: boolean } = {},
  now: Date = config().clock(),
): Promise<VoidedEntry> {
  const id = Number(idText);
  // IDs are safe integers: a larger number names no entry (and would round onto another ID).
  if (!Number.isSafeInteger(id)) throw new NotFoundError(`Usage entry ${idText} does not exist`);
  const shard = shardOf(id, AGGREGATE_SHARDS);
  return retrying('Voiding a usage entry', async () => {
    const stored = await getEntry(operatorId, shard, id);
    // Another operator's entry lives under that operator's keys: it does not exist for this one.
    if (!stored) throw new NotFoundError(`Usage entry ${id} does not exist`);
    if (!options.builtIn && isBuiltInMeter(stored.Meter)) throw BuiltInEntryError.of(stored);
    const entry = {
      ID: stored.ID,
      Meter: stored.Meter,
      Usage: stored.Usage,
      OccurredAt: stored.OccurredAt,
      ...(stored.Dimensions ? { Dimensions: stored.Dimensions } : {}),
    };
    if (stored.VoidedAt !== undefined) return { entry: { ...entry, VoidedAt: stored.VoidedAt }, voidedNow: false };
    const voidedAt = unixSeconds(now);
    const guards = await guardsOf(operatorId, [entry.Meter], shard);
    const counted = { meter: entry.Meter, occurredAt: entry.OccurredAt, dimensions: entry.Dimensions, usage: entry.Usage };
    const limits = limitWrites(operatorId, [counted], guards, -1);
    // Out of every total it was in: its meter's, its dimensions' combination's, and its limits' counters and gates.
    const { input, limitPositions } = voidEntryTransaction(
      operatorId,
      shard,
      { ...entry, Combination: stored.Combination },
      voidedAt,
      limits,
    );
    try {
      await writeTransaction(input);
      countBusinessEvent('UsageEntries', 'voided', operatorId);
      return { entry: { ...entry, VoidedAt: voidedAt }, voidedNow: true };
    } catch (error) {
      const cancellation = transactionCancellation(error);
      if (!cancellation) throw error;
      // Voided meanwhile, or an item held by a racing transaction: read again.
      if (cancellation.conditionFailed(0) || cancellation.retryable) return RETRY;
      // Counters or a gate not made yet are made from the aggregates (the entry still in them), then the void takes the entry out of them.
      const [guard] = limits.guards;
      if (cancellation.conditionFailed(limitPositions.guards[0])) {
        // Forgotten when its limits moved, its counters made when missing.
        await makeCounters(operatorId, shard, guard.meter, guard.counters, now, guard.version);
        return RETRY;
      }
      const missing = limits.gates.filter((_, i) => cancellation.conditionFailed(limitPositions.gates[i]));
      if (!missing.length) throw error;
      for (const gate of missing) await makeGate(operatorId, gate, guard.version, now);
      return RETRY;
    }
  });
}
