import { ConflictError } from '../core/errors';
import { decimalToNumber, microsToDecimal, parseMicros } from './decimal';
import { getCount } from './limit-repository';
import type { LimitRule } from './limit-model';
import { periodOfKey } from './limit-periods';
import { gateCount, makeGate, type GateWrite } from './gates';
import type { KnownGuard } from './guards';

/**
 * Entries refused by a REFUSE limit: an entry that would take Used past the
 * Amount is not written. The gate's condition decides it, at commit; when
 * it fails, the gate is read and the transaction's entries it counts are
 * taken in the order they were sent while they fit, the rest refused, and
 * the transaction is tried again without them.
 */
export class UsageLimitReachedError extends ConflictError {
  override readonly reason = 'usage-limit-reached';
}

/** Why an entry was refused: the limit, its period, and what the period had left for the entry. */
export interface Refusal {
  limitId: string;
  amount: bigint;
  remaining: bigint;
  period: { start: number; end: number; from: string; kind: LimitRule['Period']; timeZone: string };
}

const asNumber = (micros: bigint) => decimalToNumber(microsToDecimal(micros));

/** What a refused entry is told: the limit, its Amount and period, and what remains of it. */
export function refusalWords(refusal: Refusal): string {
  const { period } = refusal;
  return (
    `would take usage limit '${refusal.limitId}' past its Amount of ${asNumber(refusal.amount)} for the ${period.kind} from ${period.from} ` +
    `(${period.timeZone}): ${asNumber(refusal.remaining)} remains`
  );
}

/** The problem's members beside its detail: what a client acts on without reading words. */
export const refusalMembers = (refusal: Refusal) => ({
  LimitID: refusal.limitId,
  Remaining: asNumber(refusal.remaining),
  Amount: asNumber(refusal.amount),
  PeriodStart: refusal.period.start,
  ResetsAt: refusal.period.end,
});

/** The refusal of a single entry: the 409 names the limit, its Amount and period, and what remains. */
export const entryRefused = (entry: { Meter: string; Usage: number }, refusal: Refusal): UsageLimitReachedError =>
  new UsageLimitReachedError(`Usage ${entry.Usage} of meter '${entry.Meter}' ${refusalWords(refusal)}; nothing was recorded`, {
    extensions: refusalMembers(refusal),
  });

/** An entry on its way in, as far as its limits see it. */
export interface GatedEntry {
  input: { Usage: number };
  /** Its place in the request, for refusals to keep the order sent. */
  order: number;
  refusal?: Refusal;
}

/**
 * Settles the gates a transaction's conditions refused: a gate that does
 * not exist yet is made from the aggregates; a gate that exists has
 * too little left for the transaction's entries, and those that do not fit
 * (in the order sent) are refused. `entries` are the transaction's, in the
 * positions the gate writes name.
 */
export async function settleRefusedGates(
  operatorId: string,
  entries: GatedEntry[],
  refused: GateWrite[],
  guards: Map<string, KnownGuard>,
  now: Date,
): Promise<void> {
  for (const gate of refused) {
    const reading = await getCount(gateCount(gate.key));
    if (!reading) {
      await makeGate(operatorId, gate, guards.get(gate.meter)?.version ?? 0, now);
      continue;
    }
    const amount = parseMicros(gate.rule.Amount);
    const span = periodOfKey(gate.rule.Period, gate.rule.TimeZone, gate.periodKey);
    let left = amount - parseMicros(reading.used);
    const counted = gate.entries.map((position) => entries[position]).sort((a, b) => a.order - b.order);
    for (const entry of counted.filter((one) => !one.refusal)) {
      const usage = parseMicros(String(entry.input.Usage));
      if (usage <= left) left -= usage;
      else {
        entry.refusal = {
          limitId: gate.rule.LimitID,
          amount,
          remaining: left > 0n ? left : 0n,
          period: { start: span.start, end: span.end, from: span.from, kind: gate.rule.Period, timeZone: gate.rule.TimeZone },
        };
      }
    }
  }
}
