import { systemClock, type Clock } from '../core/clock';
import { ValidationError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import type { BatchEntryInput, BatchEntryResult } from './model';
import { usageInputViolations, type InputViolation } from './request-schema';
import { idempotencyOf, normalisedInput, settleFromRecords, writeEntries, type PendingEntry } from './record-usage';

/** One error naming every invalid entry: the first in the detail, all of them in `errors`. */
function batchInvalid(violations: InputViolation[]): ValidationError {
  const [first, ...others] = violations;
  const more = others.length ? ` (and ${others.length} more: ${others.map((other) => other.field).join(', ')}; see errors)` : '';
  return new ValidationError(`${first.message}${more}`, {
    field: first.field,
    extensions: { errors: violations.map(({ field, message }) => ({ field, detail: message })) },
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
  clock: Clock = systemClock,
): Promise<BatchEntryResult[]> {
  const violations = entries.flatMap((entry, i) => usageInputViolations(entry, { prefix: `Entries[${i}].` }));
  const pending: PendingEntry[] = entries.map((entry, i) => {
    const input = normalisedInput(entry);
    return {
      input,
      dimensionsField: `Entries[${i}].Dimensions`,
      idempotency:
        entry.Identifier === undefined ? undefined : idempotencyOf(entry.Identifier, input, 'client', `Entries[${i}].Identifier`),
    };
  });
  // An Identifier repeated inside the batch counts once: later entries answer the first one's entry.
  const firstWith = new Map<string, number>();
  const sameAs = pending.map((entry, i) => {
    if (!entry.idempotency) return i;
    const first = firstWith.get(entry.idempotency.keyHash);
    if (first === undefined) {
      firstWith.set(entry.idempotency.keyHash, i);
      return i;
    }
    if (pending[first].idempotency?.requestHash !== entry.idempotency.requestHash) {
      violations.push({ field: `Entries[${i}].Identifier`, message: `repeats the Identifier of Entries[${first}] with different fields` });
    }
    return first;
  });
  if (violations.length) throw batchInvalid(violations);

  await settleFromRecords(
    operatorId,
    [...firstWith.values()].map((i) => pending[i]),
    clock(),
  );

  // Answered from earlier batches or repeated inside this one; what is written below counts itself.
  const answeredAgain = pending.filter((entry, i) => sameAs[i] !== i || entry.result).length;
  if (answeredAgain) countBusinessEvent('UsageEntries', 'replayed', operatorId, answeredAgain);
  await writeEntries(
    operatorId,
    pending.filter((entry, i) => sameAs[i] === i && !entry.result),
    clock,
  );
  return entries.map((entry, i) => {
    const { result } = pending[sameAs[i]];
    const { ID, Meter, Usage, OccurredAt, Dimensions } = result!.entry;
    return {
      ID,
      Meter,
      Usage,
      OccurredAt,
      ...(Dimensions ? { Dimensions } : {}),
      ...(entry.Identifier === undefined ? {} : { Identifier: entry.Identifier }),
      Replayed: sameAs[i] !== i || result!.replayed,
    };
  });
}
