import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { countBusinessEvent } from '../core/metrics';
import { ValidationError } from '../core/errors';
import { checkIdempotencyKey, hashIdempotencyKey, replayable, requestHash } from '../core/idempotency';
import { RETRY, retrying } from '../core/retry';
import { transactionCancellation } from '../db/transaction-errors';
import type { IdempotencyOrigin } from '../db/usage-keys';
import { canonicalDimensions, combinationNumbers } from './combinations';
import { registerNewMeters } from './meters';
import { newUsageIds, randomShard } from './ids';
import type { UsageEntry, UsageInput } from './schemas';
import { AGGREGATE_SHARDS } from './model';
import { getIdempotencyRecords, writeTransaction, type IdempotencyKeyRef, type IdempotencyRecordItem } from './repository';
import { usageInputViolations } from './entry-rules';
import { aggregateKeysOf, recordEntriesTransaction } from './usage-writes';
import { limitWrites, type CountedEntry } from './gates';
import { guardsOf } from './guards';
import { makeCounters } from './limit-counters';
import { entryRefused, settleRefusedGates, type Refusal } from './limit-refusals';

export interface RecordedUsage {
  entry: UsageEntry;
  /** True when an earlier request with the same idempotency key recorded the entry. */
  replayed: boolean;
}

/** An entry on its way in: its input, its idempotency key, and once settled, what it recorded or replayed. */
export interface PendingEntry {
  input: UsageInput;
  /** The field its Meter came in (`Meter`, `Entries[3].Meter`), named if its meter is refused. */
  meterField: string;
  /** The field its Dimensions came in (`Dimensions`, `Entries[3].Dimensions`), named if its combination is refused. */
  dimensionsField: string;
  idempotency?: IdempotencyKeyRef & { requestHash: string; field: string };
  /** The number of its dimensions' combination, once known. */
  combination?: number;
  /** Its place in the request: refusals keep the order sent. */
  order: number;
  result?: RecordedUsage;
  /** Set when a REFUSE limit refused it: nothing of it was written. */
  refusal?: Refusal;
}

/** An input as recorded: dimensions in canonical order, and `{}` the same as none. */
export const normalisedInput = ({ Meter, Usage, ExtraInfo, OccurredAt, Dimensions }: UsageInput): UsageInput => ({
  Meter,
  Usage,
  ExtraInfo,
  OccurredAt,
  Dimensions: canonicalDimensions(Dimensions),
});

/** The idempotency key of an input: one scheme for the Idempotency-Key header, batch Identifiers and platform event IDs. */
export const idempotencyOf = (
  key: string,
  input: UsageInput,
  origin: IdempotencyOrigin,
  field: string,
): NonNullable<PendingEntry['idempotency']> => ({
  origin,
  keyHash: hashIdempotencyKey(key),
  // Dimensions are part of the request; an entry without them hashes as entries did before dimensions existed.
  requestHash: requestHash({
    Meter: input.Meter,
    Usage: input.Usage,
    ExtraInfo: input.ExtraInfo,
    OccurredAt: input.OccurredAt,
    Dimensions: input.Dimensions,
  }),
  field,
});

/** Settles an entry whose key already has a live record of the same request: it answers that record's entry. */
export function settleReplay(pending: PendingEntry, records: Map<string, IdempotencyRecordItem>, now: Date): void {
  const idempotency = pending.idempotency as NonNullable<PendingEntry['idempotency']>;
  const record = replayable(records.get(idempotency.keyHash), idempotency, now, (earlier) => `usage entry ${earlier.Entry.ID}`);
  if (record) pending.result = { entry: record.Entry, replayed: true };
}

/** DynamoDB takes at most 100 items in one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * Writers of one REFUSE limit meet on its gate, one item: more of them lose
 * a race to it than to anything else, and each loss is one more attempt.
 */
const GATED_WRITE_RETRIES = { attempts: 25, capMs: 1000 };

/** What a limit counts of an entry. */
const countedOf = ({ input }: PendingEntry): CountedEntry => ({
  meter: input.Meter,
  occurredAt: input.OccurredAt as number,
  dimensions: input.Dimensions,
  usage: input.Usage,
});

/**
 * Splits entries into transactions: each entry brings its item (and key
 * record), the aggregates no earlier entry of its transaction touches, and
 * what its limits add (`limitItemsOf`: its meter's guard, the REFUSE gates
 * it counts in) that no earlier entry brought. Entries are taken in order of
 * hour and meter, so that those sharing aggregates share a transaction and
 * each aggregate is written as few times as possible.
 */
export function transactionGroups(entries: PendingEntry[], limitItemsOf: (pending: PendingEntry) => string[] = () => []): PendingEntry[][] {
  const byAggregate = (pending: PendingEntry) => aggregateKeysOf(pending.input as Required<UsageInput>)[0];
  const ordered = [...entries].sort((a, b) => (byAggregate(a) < byAggregate(b) ? -1 : byAggregate(a) > byAggregate(b) ? 1 : 0));
  const groups: PendingEntry[][] = [];
  let group: PendingEntry[] = [];
  let items = 0;
  let shared = new Set<string>();
  for (const pending of ordered) {
    const keys = [...aggregateKeysOf(pending.input as Required<UsageInput>), ...limitItemsOf(pending)];
    const itemsOf = (known: Set<string>) => (pending.idempotency ? 2 : 1) + keys.filter((key) => !known.has(key)).length;
    if (group.length && items + itemsOf(shared) > MAX_TRANSACTION_ITEMS) {
      groups.push(group);
      [group, items, shared] = [[], 0, new Set<string>()];
    }
    group.push(pending);
    items += itemsOf(shared);
    keys.forEach((key) => shared.add(key));
  }
  if (group.length) groups.push(group);
  return groups;
}

/**
 * Writes one transaction's entries until each is recorded, found to be a
 * replay, or refused by a limit. Each attempt puts the open entries in one
 * shard with fresh IDs, with their meters' guards written (the counters of
 * their NONE limits added to) and their REFUSE limits' gates counted in; a
 * cancelled attempt tells which key records already exist (those entries
 * are replays, or a key reused for another request), whether an ID
 * collided or a racing transaction held an item, whether a guard refused
 * (its limits are read again when they moved, its counters made when
 * missing) and which gates refused (made when missing, or a REFUSE limit's
 * refusals decided): then it tries again, in a random shard, or in the same
 * one when it made counters there, so that a period's first writes make
 * each shard's counters once rather than wander from shard to shard.
 */
async function writeGroup(operatorId: string, group: PendingEntry[], now: Date): Promise<void> {
  let nextShard: number | undefined;
  await retrying(
    'Recording usage entries',
    async () => {
      const open = group.filter((pending) => !pending.result && !pending.refusal);
      if (!open.length) return true;
      const shard = nextShard ?? randomShard(AGGREGATE_SHARDS);
      nextShard = undefined;
      const ids = newUsageIds(now.getTime(), shard, AGGREGATE_SHARDS, open.length);
      const writes = open.map(({ input, idempotency, combination }, i) => ({
        entry: {
          ID: ids[i],
          Meter: input.Meter,
          Usage: input.Usage,
          OccurredAt: input.OccurredAt as number,
          ...(input.Dimensions ? { Dimensions: input.Dimensions } : {}),
        },
        extraInfo: input.ExtraInfo,
        idempotency,
        combination,
      }));
      const guards = await guardsOf(
        operatorId,
        open.map((pending) => pending.input.Meter),
        shard,
      );
      const limits = limitWrites(operatorId, open.map(countedOf), guards);
      const { input, positions, limitPositions } = recordEntriesTransaction(operatorId, shard, writes, now, limits);
      // Planned with the limits known then: a limit put since may add gates past DynamoDB's 100 items. Then each half goes on its own.
      if ((input.TransactItems?.length ?? 0) > MAX_TRANSACTION_ITEMS) {
        const half = Math.ceil(open.length / 2);
        await Promise.all([open.slice(0, half), open.slice(half)].map((part) => writeGroup(operatorId, part, now)));
        return true;
      }
      try {
        await writeTransaction(input);
      } catch (error) {
        const cancellation = transactionCancellation(error);
        if (!cancellation) throw error;
        const keyTaken = open.filter((_, i) => {
          const position = positions[i].idempotency;
          return position !== undefined && cancellation.conditionFailed(position);
        });
        const idTaken = open.some((_, i) => cancellation.conditionFailed(positions[i].entry));
        const records = await getIdempotencyRecords(
          operatorId,
          keyTaken.flatMap((pending) => (pending.idempotency ? [pending.idempotency] : [])),
        );
        // A record that expired since the write was tried is gone: the next attempt records afresh.
        for (const pending of keyTaken) settleReplay(pending, records, now);
        // A guard that refused has moved (its limits are forgotten, and read again) or lacks counters (made now, in this shard).
        const refusedGuards = limits.guards.filter((_, i) => cancellation.conditionFailed(limitPositions.guards[i]));
        for (const guard of refusedGuards) {
          await makeCounters(operatorId, shard, guard.meter, guard.counters, now, guard.version);
          nextShard = shard;
        }
        // A replay's key record refused it, whatever its gates said: only the entries still open are judged by them.
        const refusedGates = limits.gates.filter((_, i) => cancellation.conditionFailed(limitPositions.gates[i]));
        if (refusedGates.length && !refusedGuards.length) await settleRefusedGates(operatorId, open, refusedGates, guards, now);
        const settled = keyTaken.length > 0 || idTaken || refusedGuards.length > 0 || refusedGates.length > 0;
        if (!settled && !cancellation.retryable) throw error;
        return RETRY;
      }
      open.forEach((pending, i) => (pending.result = { entry: writes[i].entry, replayed: false }));
      return true;
    },
    GATED_WRITE_RETRIES,
  );
}

/**
 * Records entries (already validated, their inputs normalised), in as few
 * transactions as DynamoDB allows, written side by side, once their meters
 * are registered (new ones within the operator's limit) and the
 * combinations of their dimensions are known (new ones within each meter's limit). An entry without OccurredAt happened when it arrived;
 * its idempotency key was fingerprinted with the fields as sent.
 */
export async function writeEntries(operatorId: string, entries: PendingEntry[], now: Date): Promise<void> {
  const arrivedAt = unixSeconds(now);
  for (const pending of entries) pending.input = { ...pending.input, OccurredAt: pending.input.OccurredAt ?? arrivedAt };
  await registerNewMeters(
    operatorId,
    entries.map((pending) => ({ meter: pending.input.Meter, field: pending.meterField })),
    now,
  );
  const dimensioned = entries.filter((pending) => pending.input.Dimensions);
  const numbers = await combinationNumbers(
    operatorId,
    dimensioned.map((pending) => ({ meter: pending.input.Meter, dimensions: pending.input.Dimensions!, field: pending.dimensionsField })),
  );
  dimensioned.forEach((pending, i) => (pending.combination = numbers[i]));
  // Each meter's guard and the REFUSE gates its entries count in are items of the transactions they are written in.
  const guards = await guardsOf(
    operatorId,
    entries.map((pending) => pending.input.Meter),
    randomShard(AGGREGATE_SHARDS),
  );
  const limitItemsOf = (pending: PendingEntry) => [
    `guard|${pending.input.Meter}`,
    ...limitWrites(operatorId, [countedOf(pending)], guards).gates.map((gate) => `${gate.key.PK}|${gate.key.SK}`),
  ];
  // Every transaction settles before an error is answered, so that nothing is still being written when the client retries.
  const outcomes = await Promise.allSettled(transactionGroups(entries, limitItemsOf).map((group) => writeGroup(operatorId, group, now)));
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const replayed = entries.filter((pending) => pending.result?.replayed).length;
  const refused = entries.filter((pending) => pending.refusal).length;
  if (entries.length > replayed + refused) countBusinessEvent('UsageEntries', 'recorded', operatorId, entries.length - replayed - refused);
  if (replayed) countBusinessEvent('UsageEntries', 'replayed', operatorId, replayed);
  if (refused) countBusinessEvent('UsageEntries', 'refused', operatorId, refused);
}

/**
 * Records one usage entry for an operator. With an idempotency key, the
 * first request records and every later one with the same key (concurrent
 * ones included) gets that first entry back without counting again; the same
 * key with different fields is refused. An entry a REFUSE limit refuses is
 * not written (its key is not spent).
 */
export async function recordUsage(
  operatorId: string,
  input: UsageInput,
  options: { idempotencyKey?: string; builtIn?: boolean } = {},
  now: Date = config().clock(),
): Promise<RecordedUsage> {
  const [violation] = usageInputViolations(input, options);
  if (violation) throw new ValidationError(violation.message, { field: violation.field });
  const pending: PendingEntry = { input: normalisedInput(input), meterField: 'Meter', dimensionsField: 'Dimensions', order: 0 };
  if (options.idempotencyKey !== undefined) {
    checkIdempotencyKey(options.idempotencyKey);
    const idempotency = idempotencyOf(
      options.idempotencyKey,
      pending.input,
      options.builtIn ? 'platform-event' : 'client',
      'Idempotency-Key',
    );
    pending.idempotency = idempotency;
    // Dimensions may bring a new combination, registered before the entry is written: a key sent again is answered before that.
    if (pending.input.Dimensions) settleReplay(pending, await getIdempotencyRecords(operatorId, [idempotency]), now);
    if (pending.result) {
      countBusinessEvent('UsageEntries', 'replayed', operatorId);
      return pending.result;
    }
  }
  await writeEntries(operatorId, [pending], now);
  if (pending.refusal) throw entryRefused(pending.input, pending.refusal);
  return pending.result as RecordedUsage;
}
