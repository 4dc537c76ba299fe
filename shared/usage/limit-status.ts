import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { decimalToNumber, microsToDecimal, parseMicros } from './decimal';
import type { LimitItem } from './limit-model';
import { periodAt, type LimitPeriodSpan } from './limit-periods';
import { getLimitItem } from './limit-repository';
import type { UsageLimitStatus } from './limit-schemas';
import { notFound } from './limits';
import { usedInPeriod } from './period-usage';
import type { ReadCost } from './repository';

/**
 * A limit's status: how much of its current period's Amount is used, read
 * from the usage aggregates as a summary of the same meter, filter and
 * period reads them, so the two always agree, entries recorded before the
 * limit existed included. Amounts are compared in exact millionths.
 */
const asNumber = (micros: bigint): number => decimalToNumber(microsToDecimal(micros));

/** Whether Used has reached `percent` % of Amount (both in millionths; a percentage has at most 2 decimal places). */
export const hasCrossed = (used: bigint, amount: bigint, percent: number): boolean =>
  used * 10_000n >= amount * BigInt(Math.round(percent * 100));

/** The thresholds Used has reached. */
export const crossedThresholds = (limit: Pick<LimitItem, 'Amount' | 'Thresholds'>, used: bigint): number[] =>
  limit.Thresholds.filter((percent) => hasCrossed(used, parseMicros(limit.Amount), percent));

/** The status of a limit in a period, given what the period has used (millionths). */
export function statusOf(limit: LimitItem, period: LimitPeriodSpan, used: bigint): UsageLimitStatus {
  const amount = parseMicros(limit.Amount);
  return {
    LimitID: limit.LimitID,
    Meter: limit.Meter,
    Used: asNumber(used),
    Remaining: asNumber(amount > used ? amount - used : 0n),
    Amount: asNumber(amount),
    PeriodStart: period.start,
    ResetsAt: period.end,
    Allowed: used < amount,
    Thresholds: limit.Thresholds.map((percent) => ({ Percent: percent, Crossed: hasCrossed(used, amount, percent) })),
  };
}

export interface StatusResult {
  status: UsageLimitStatus;
  /** What it read: it depends on the period's cover and the shards, never on the number of entries. */
  readCost: ReadCost;
}

export async function readLimitStatus(operatorId: string, limitId: string, now: Date = config().clock()): Promise<StatusResult> {
  const limit = await getLimitItem(operatorId, limitId);
  if (!limit) throw notFound(limitId);
  const period = periodAt(limit.Period, limit.TimeZone, unixSeconds(now));
  const readCost: ReadCost = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 };
  return { status: statusOf(limit, period, await usedInPeriod(operatorId, limit, period, readCost)), readCost };
}

export const usageLimitStatus = async (operatorId: string, limitId: string): Promise<UsageLimitStatus> =>
  (await readLimitStatus(operatorId, limitId)).status;
