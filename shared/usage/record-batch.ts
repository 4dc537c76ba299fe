import { config } from '../core/config';
import { everyViolation, type FieldViolation } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import type { BatchEntryInput, BatchEntryResult } from './schemas';
import { getIdempotencyRecords } from './repository';
import { usageInputViolations } from './entry-rules';
import { idempotencyOf, normalisedInput, settleReplay, writeEntries, type PendingEntry } from './record-usage';

/** A batch entry on its way in; `original` is the index of the first entry with its Identifier (its own index when it is the first). */
interface BatchEntry extends PendingEntry {
  original: number;
}

/**
 * An Identifier repeated inside the batch counts once: a later entry answers
 * the first one's entry, and repeating it with other fields is a violation.
 */
function linkRepeatedIdentifiers(pending: BatchEntry[], violations: FieldViolation[]): void {
  const firstWith = new Map<string, number>();
  pending.forEach((entry, i) => {
    if (!entry.idempotency) return;
    const first = firstWith.get(entry.idempotency.keyHash);
    if (first === undefined) return void firstWith.set(entry.idempotency.keyHash, i);
    entry.original = first;
    if (pending[first].idempotency?.requestHash !== entry.idempotency.requestHash) {
      violations.push({ field: `Entries[${i}].Identifier`, message: `repeats the Identifier of Entries[${first}] with different fields` });
    }
  });
}

/**
 * Records a batch of entries (the schema has checked their shape). Every
 * entry is checked before anything is written; then each entry's Identifier
 * is looked up, so that an Identifier already used for other fields refuses
 * the batch with nothing written, and one used for the same fields answers
 * its original entry. The rest are written in as few transactions as
 * DynamoDB allows. A failure part-way leaves some transactions written:
 * sending the batch again completes it, and entries with an Identifier count once.
 */
export async function recordUsageBatch(
  operatorId: string,
  entries: BatchEntryInput[],
  now: Date = config().clock(),
): Promise<BatchEntryResult[]> {
  const violations = entries.flatMap((entry, i) => usageInputViolations(entry, { prefix: `Entries[${i}].` }));
  const pending: BatchEntry[] = entries.map((entry, i) => {
    const input = normalisedInput(entry);
    return {
      input,
      meterField: `Entries[${i}].Meter`,
      dimensionsField: `Entries[${i}].Dimensions`,
      idempotency:
        entry.Identifier === undefined ? undefined : idempotencyOf(entry.Identifier, input, 'client', `Entries[${i}].Identifier`),
      original: i,
    };
  });
  linkRepeatedIdentifiers(pending, violations);
  if (violations.length) throw everyViolation(violations);

  const originals = pending.filter((entry, i) => entry.original === i);
  const identified = originals.filter((entry) => entry.idempotency);
  const records = await getIdempotencyRecords(
    operatorId,
    identified.flatMap((entry) => (entry.idempotency ? [entry.idempotency] : [])),
  );
  for (const entry of identified) settleReplay(entry, records, now);

  // Answered from earlier batches or repeated inside this one; what is written below counts itself.
  const answeredFromRecords = pending.filter((entry, i) => entry.original !== i || entry.result).length;
  if (answeredFromRecords) countBusinessEvent('UsageEntries', 'replayed', operatorId, answeredFromRecords);
  await writeEntries(
    operatorId,
    originals.filter((entry) => !entry.result),
    now,
  );
  return entries.map((entry, i) => {
    const { result } = pending[pending[i].original];
    if (!result) throw new Error(`Entries[${i}] was neither written nor replayed`);
    const { ID, Meter, Usage, OccurredAt, Dimensions } = result.entry;
    return {
      ID,
      Meter,
      Usage,
      OccurredAt,
      ...(Dimensions ? { Dimensions } : {}),
      ...(entry.Identifier === undefined ? {} : { Identifier: entry.Identifier }),
      Replayed: pending[i].original !== i || result.replayed,
    };
  });
}
