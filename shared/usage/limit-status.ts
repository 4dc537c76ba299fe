import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { ValidationError } from '../core/errors';
import { decimalToNumber, microsToDecimal, parseMicros } from './decimal';
import type { LimitItem } from './limit-model';
import { countable, periodAt, type LimitPeriodSpan } from './limit-periods';
import { getLimitItem } from './limit-repository';
import type { UsageLimitStatus } from './limit-schemas';
import { notFound } from './limits';
import { AGGREGATE_SHARDS } from './model';
import { periodUsage } from './period-usage';
import type { ReadCost } from './repository';

/**
 * A limit's status: how much of its current period's Amount is used, read
 * from the usage aggregates as a summary of the same meter, filter and
 * period reads them, so the two always agree, entries recorded before the
 * limit existed included. Amounts are compared in exact millionths.
 */
export const ALL_SHARDS: readonly number[] = Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => shard);

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

/** What the limit's period has used: its meter's aggregates over the period, every shard (or those asked for), its filter applied. */
export function usedInPeriod(
  operatorId: string,
  limit: Pick<LimitItem, 'Meter' | 'Filter'>,
  period: LimitPeriodSpan,
  cost: ReadCost,
  shards: readonly number[] = ALL_SHARDS,
): Promise<bigint> {
  if (!countable(period)) {
    throw new ValidationError(
      `The period ${period.key} does not start and end on whole UTC hours in the limit's zone, so it cannot be counted`,
    );
  }
  return periodUsage(operatorId, { meter: limit.Meter, filter: limit.Filter, interval: period, shards }, cost);
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
