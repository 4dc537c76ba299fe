import { randomBytes } from 'node:crypto';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import type { Caller } from '../core/caller';
import { NotFoundError, ValidationError } from '../core/errors';
import { RETRY, retrying } from '../core/retry';
import { transactionCancellation } from '../db/transaction-errors';
import { compareDecimals, parseDecimal } from './decimal';
import { MAX_LIMITS, MAX_METER_LIMITS, type LimitItem, type LimitRule } from './limit-model';
import { periodAt } from './limit-periods';
import {
  countUpdate,
  getGuard,
  getLimitCount,
  getLimitItem,
  guardUpdates,
  limitDelete,
  limitPut,
  listLimitItems,
  type StoredLimit,
} from './limit-repository';
import { checkedDefinition, type LimitDefinition } from './limit-rules';
import type { UsageLimit, UsageLimitInput } from './limit-schemas';
import { writeTransaction } from './repository';

/**
 * An operator's usage limits: put (create or change), read, list, delete.
 * Every change writes the limit, its meter's guards (the copy of the
 * meter's limits that recording checks) and the operator's count in one
 * transaction conditioned on what was read, so the caps hold under races
 * and no entry is recorded under limits that have changed since it read them.
 */

/** Names a limit's gates: 12 URL-safe characters, never '#'. */
const newGateKey = () => randomBytes(9).toString('base64url');

export const notFound = (limitId: string) => new NotFoundError(`Usage limit '${limitId}' does not exist`);

export function publicLimit(item: LimitItem): UsageLimit {
  return {
    LimitID: item.LimitID,
    Meter: item.Meter,
    ...(item.Filter ? { Filter: item.Filter } : {}),
    Period: item.Period,
    TimeZone: item.TimeZone,
    Amount: Number(item.Amount),
    Thresholds: item.Thresholds,
    Enforcement: item.Enforcement,
    AppliesFrom: item.AppliesFrom,
    CreatedAt: item.CreatedAt,
    UpdatedAt: item.UpdatedAt,
  };
}

/** What recording needs of a limit (its meter's guards hold these). */
const ruleOf = ({ LimitID, GateKey, Filter, Period, TimeZone, Amount, Enforcement, AppliesFrom }: LimitItem): LimitRule => ({
  LimitID,
  GateKey,
  ...(Filter ? { Filter } : {}),
  Period,
  TimeZone,
  Amount,
  Enforcement,
  AppliesFrom,
});

const sameFilter = (a?: Record<string, string>, b?: Record<string, string>) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** Whether a change leaves what the limit counts, and how it enforces, as they were: then its gates go on counting. */
const countsAlike = (definition: LimitDefinition, item: LimitItem) =>
  definition.Meter === item.Meter &&
  sameFilter(definition.Filter, item.Filter) &&
  definition.Period === item.Period &&
  definition.TimeZone === item.TimeZone &&
  definition.Enforcement === item.Enforcement;

const unchanged = (definition: LimitDefinition, item: LimitItem) =>
  countsAlike(definition, item) &&
  compareDecimals(parseDecimal(definition.Amount), parseDecimal(item.Amount)) === 0 &&
  definition.Thresholds.join() === item.Thresholds.join();

const meterFull = (meter: string) =>
  new ValidationError(`names the meter '${meter}', which has ${MAX_METER_LIMITS} limits, the most a meter may have; delete one first`, {
    field: 'Meter',
  });

const operatorFull = () =>
  new ValidationError(`This operator has ${MAX_LIMITS} usage limits, the most it may have; delete one before creating another`);

/** Writes a change; a cancelled transaction (a change raced it) is read again and retried. */
async function write(items: Parameters<typeof writeTransaction>[0]['TransactItems']): Promise<boolean> {
  try {
    await writeTransaction({ TransactItems: items });
    return true;
  } catch (error) {
    if (transactionCancellation(error)) return false;
    throw error;
  }
}

/**
 * Creates the limit or changes it. A change of Amount or Thresholds applies
 * from the current period on (AppliesFrom); a change of what the limit
 * counts (Meter, Filter, Period, TimeZone) or of its Enforcement counts
 * afresh, from the aggregates. Putting the same definition again changes nothing.
 */
export async function putUsageLimit(
  caller: Pick<Caller, 'operatorId' | 'timeZone'>,
  limitId: string,
  input: UsageLimitInput,
  now: Date = config().clock(),
): Promise<UsageLimit> {
  const operatorId = caller.operatorId;
  const definition = checkedDefinition(input, caller.timeZone, now);
  return retrying('Putting a usage limit', async () => {
    const existing = await getLimitItem(operatorId, limitId);
    if (existing && unchanged(definition, existing)) return publicLimit(existing);
    const guard = await getGuard(operatorId, 0, definition.Meter);
    const others = (guard?.Limits ?? []).filter((rule) => rule.LimitID !== limitId);
    if (others.length >= MAX_METER_LIMITS) throw meterFull(definition.Meter);
    const count = existing ? undefined : await getLimitCount(operatorId);
    if (count !== undefined && count >= MAX_LIMITS) throw operatorFull();
    const item: StoredLimit = {
      LimitID: limitId,
      ...definition,
      GateKey: existing && countsAlike(definition, existing) ? existing.GateKey : newGateKey(),
      AppliesFrom: periodAt(definition.Period, definition.TimeZone, unixSeconds(now)).start,
      CreatedAt: existing?.CreatedAt ?? now.toISOString(),
      UpdatedAt: now.toISOString(),
      Revision: (existing?.Revision ?? 0) + 1,
    };
    const items = [
      limitPut(operatorId, item, existing?.Revision),
      ...guardUpdates(operatorId, definition.Meter, guard?.Version ?? 0, [...others, ruleOf(item)]),
    ];
    if (existing && existing.Meter !== definition.Meter) {
      const previous = await getGuard(operatorId, 0, existing.Meter);
      const left = (previous?.Limits ?? []).filter((rule) => rule.LimitID !== limitId);
      items.push(...guardUpdates(operatorId, existing.Meter, previous?.Version ?? 0, left));
    }
    if (count !== undefined) items.push(countUpdate(operatorId, count, count + 1));
    return (await write(items)) ? publicLimit(item) : RETRY;
  });
}

export async function getUsageLimit(operatorId: string, limitId: string): Promise<UsageLimit> {
  const item = await getLimitItem(operatorId, limitId);
  if (!item) throw notFound(limitId);
  return publicLimit(item);
}

/** Every limit of the operator, by LimitID. */
export async function listUsageLimits(operatorId: string): Promise<UsageLimit[]> {
  return (await listLimitItems(operatorId)).map(publicLimit);
}

/** Deletes a limit: recording stops counting it at once; its gates and alert states expire. */
export async function deleteUsageLimit(operatorId: string, limitId: string): Promise<void> {
  await retrying('Deleting a usage limit', async () => {
    const existing = await getLimitItem(operatorId, limitId);
    if (!existing) throw notFound(limitId);
    const [guard, count] = await Promise.all([getGuard(operatorId, 0, existing.Meter), getLimitCount(operatorId)]);
    const left = (guard?.Limits ?? []).filter((rule) => rule.LimitID !== limitId);
    const items = [
      limitDelete(operatorId, existing),
      ...guardUpdates(operatorId, existing.Meter, guard?.Version ?? 0, left),
      countUpdate(operatorId, count, count - 1),
    ];
    return (await write(items)) ? true : RETRY;
  });
}
