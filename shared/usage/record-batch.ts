import { config } from '../core/config';
import { everyViolation, type FieldViolation } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import type { BatchEntryInput, BatchEntryResult } from './schemas';
import { getIdempotencyRecords } from './repository';
import { usageInputViolations } from './entry-rules';
import { idempotencyOf, normalisedInput, settleReplay, writeEntries, type PendingEntry } from './record-usage';
import { refusalMembers, refusalWords, UsageLimitReachedError, type Refusal } from './limit-refusals';

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
 * sending the batch again completes it, and entries with an Identifier count
 * once. Entries a REFUSE limit refuses are not written, and the batch
 * answers a 409 that lists every entry's outcome.
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
      order: i,
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
  const outcomes = entries.map((entry, i): BatchEntryResult | RefusedBatchEntry => {
    const { result, refusal, input } = pending[pending[i].original];
    const identifier = entry.Identifier === undefined ? {} : { Identifier: entry.Identifier };
    if (refusal) {
      const { Meter, Usage, OccurredAt, Dimensions } = input;
      return {
        Meter,
        Usage,
        OccurredAt: OccurredAt as number,
        ...(Dimensions ? { Dimensions } : {}),
        ...identifier,
        Refused: refusalMembers(refusal),
      };
    }
    if (!result) throw new Error(`Entries[${i}] was neither written, replayed nor refused`);
    const { ID, Meter, Usage, OccurredAt, Dimensions } = result.entry;
    return {
      ID,
      Meter,
      Usage,
      OccurredAt,
      ...(Dimensions ? { Dimensions } : {}),
      ...identifier,
      Replayed: pending[i].original !== i || result.replayed,
    };
  });
  const refused = pending.flatMap((entry, i) => {
    const { refusal } = pending[entry.original];
    return refusal ? [{ field: `Entries[${i}]`, message: `${refusalWords(refusal)}; nothing of it was recorded`, refusal }] : [];
  });
  if (refused.length) throw batchRefusal(refused, outcomes);
  return outcomes as BatchEntryResult[];
}

/** A batch entry a limit refused, as the 409 lists it among the others: what was sent, and why it was refused. */
type RefusedBatchEntry = Omit<BatchEntryResult, 'ID' | 'Replayed'> & { Refused: ReturnType<typeof refusalMembers> };

/**
 * Entries of a batch that limits refused: a 409 naming the first and listing
 * every one in `errors`, with the outcome of every entry in `Entries` (the
 * others were recorded, or replayed, as a 201 would list them).
 */
function batchRefusal(refused: { field: string; message: string; refusal: Refusal }[], outcomes: unknown[]): UsageLimitReachedError {
  const [first, ...others] = refused;
  const more = others.length ? ` (and ${others.length} more refused: ${others.map((other) => other.field).join(', ')}; see errors)` : '';
  const rest = outcomes.length - refused.length;
  return new UsageLimitReachedError(`${first.message}${more}; the other ${rest} entries were recorded or replayed (see Entries)`, {
    field: first.field,
    extensions: {
      ...refusalMembers(first.refusal),
      errors: refused.map(({ field, message }) => ({ field, detail: message })),
      Entries: outcomes,
    },
  });
}
