import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NumberValue, UpdateCommand, type TransactWriteCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import * as limitKeys from '../db/limit-keys';
import { formatDecimal, microsToDecimal } from './decimal';
import { forgetGuard } from './guards';
import { COUNTERS_KEPT, COUNTERS_MOST, counterName, counterOf, type LimitRule } from './limit-model';
import { periodOfKey } from './limit-periods';
import { getGuardCounters, type GuardCounters } from './limit-repository';
import { usedInPeriod } from './period-usage';

/**
 * The counters of a meter's alert-only (NONE) limits: kept in the meter's
 * guard of each shard, beside the Version every recording transaction is
 * conditioned on, so that a transaction recording (or voiding) entries of
 * the meter writes one item for all of them: it adds to the counters its
 * entries count in, on the condition that the guard is at the Version it
 * recorded by and that each of those counters exists. A NONE limit thus
 * adds no item to recording, whatever the number of them; a REFUSE limit
 * adds its gate (gates.ts).
 *
 * A counter is made from the aggregates of its shard the first time a
 * write needs it (the entries recorded before the limit, or before the
 * period's first write, included), and every write needs it to exist:
 * while it does not, no entry it would count can be written in its shard,
 * so the aggregates cannot move under it. The maker reads the guard before
 * the aggregates and writes the counters it found missing only if they are
 * still missing and neither the Version nor Pruned moved meanwhile: a
 * counter made and removed again in between (and so possibly written to)
 * is never made over with what was read before. Making a counter removes
 * the counters of limits the meter no longer has and each limit's oldest
 * past those it keeps (COUNTERS_KEPT, COUNTERS_MOST: limit-model.ts), so a
 * guard stays the size of its limits.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What a transaction's entries add to one NONE limit's counter of one period (millionths, negative for a void). */
export interface CounterWrite {
  rule: LimitRule;
  periodKey: string;
  usage: bigint;
}

/** A meter's guard as a transaction writes it: at the Version it recorded by, with the counters its entries count in. */
export interface GuardWrite {
  meter: string;
  version: number;
  counters: CounterWrite[];
}

/** Millionths as the exact decimal DynamoDB keeps. */
export const decimalText = (micros: bigint) => NumberValue.from(formatDecimal(microsToDecimal(micros)));

/**
 * The item of a meter's guard in a transaction: the check that it is at
 * the Version written with (none: still no guard) when no counter moves,
 * else the Update of the counters (and Writes), only if they all exist;
 * Counted names them for the watcher.
 */
export function guardItem(operatorId: string, shard: number, write: GuardWrite): TransactItem {
  const Key = limitKeys.guard(operatorId, shard, write.meter);
  if (write.version === 0) return { ConditionCheck: { TableName: tableName(), Key, ConditionExpression: 'attribute_not_exists(PK)' } };
  if (!write.counters.length) {
    return {
      ConditionCheck: {
        TableName: tableName(),
        Key,
        ConditionExpression: 'Version = :version',
        ExpressionAttributeValues: { ':version': write.version },
      },
    };
  }
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':version': write.version,
    ':one': 1,
    ':counted': write.counters.map((counter) => `${counter.rule.GateKey}#${counter.periodKey}`).join(' '),
  };
  write.counters.forEach((counter, i) => {
    names[`#c${i}`] = counterName(counter.rule.GateKey, counter.periodKey);
    values[`:c${i}`] = decimalText(counter.usage);
  });
  const placeholders = Object.keys(names);
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: `ADD ${placeholders.map((name, i) => `${name} :c${i}`).join(', ')}, Writes :one SET Counted = :counted`,
      ConditionExpression: ['Version = :version', ...placeholders.map((name) => `attribute_exists(${name})`)].join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The counters a guard loses when `made` are made: those of limits that
 * are not among the meter's NONE limits any more, and each limit's past its
 * COUNTERS_KEPT newest periods when one made is newer than all it has, or
 * past its COUNTERS_MOST newest otherwise (a period's key sorts as its time
 * does); never one made now.
 */
export function prunedCounters(existing: string[], noneLimits: Set<string>, made: string[]): string[] {
  const periods = (names: string[], gateKey: string) =>
    names.map(counterOf).flatMap((counter) => (counter.gateKey === gateKey ? [counter.periodKey] : []));
  const kept = new Set(made);
  for (const gateKey of noneLimits) {
    const had = periods(existing, gateKey).sort();
    const newest = had.at(-1);
    const begins = periods(made, gateKey).some((periodKey) => newest === undefined || periodKey > newest);
    const all = [...new Set([...had, ...periods(made, gateKey)])].sort().reverse();
    for (const periodKey of all.slice(0, begins ? COUNTERS_KEPT : COUNTERS_MOST)) kept.add(counterName(gateKey, periodKey));
  }
  return existing.filter((name) => !kept.has(name));
}

/** The Update that makes counters (`made`: name and Used) and removes `removed`, if the guard is still as read and they are still missing. */
function makeUpdate(
  operatorId: string,
  shard: number,
  meter: string,
  guard: GuardCounters,
  made: { name: string; used: bigint }[],
  removed: string[],
  now: Date,
): UpdateCommandInput {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':operator': operatorId, ':version': guard.version, ':start': now.getTime(), ':one': 1 };
  // Writes starts at the milliseconds of the first make, so that a guard made again orders after every reading of the one before.
  const sets = ['OperatorID = :operator', 'Writes = if_not_exists(Writes, :start) + :one'];
  made.forEach(({ name, used }, i) => {
    names[`#m${i}`] = name;
    values[`:m${i}`] = decimalText(used);
    sets.push(`#m${i} = :m${i}`);
  });
  removed.forEach((name, i) => (names[`#r${i}`] = name));
  if (removed.length) {
    sets.push('Pruned = if_not_exists(Pruned, :zero) + :one');
    values[':zero'] = 0;
  }
  if (guard.pruned !== undefined) values[':pruned'] = guard.pruned;
  return {
    TableName: tableName(),
    Key: limitKeys.guard(operatorId, shard, meter),
    // A make counts nothing: its record names no counter (Counted), so the watcher is not handed it.
    UpdateExpression: `SET ${sets.join(', ')} REMOVE ${[...removed.map((_, i) => `#r${i}`), 'Counted'].join(', ')}`,
    ConditionExpression: [
      'Version = :version',
      guard.pruned === undefined ? 'attribute_not_exists(Pruned)' : 'Pruned = :pruned',
      ...made.map((_, i) => `attribute_not_exists(#m${i})`),
    ].join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Makes the counters of `wanted` that `meter`'s guard in `shard` lacks,
 * each from the aggregates of that shard, for the limits it still has.
 * With `knownVersion` (a writer's), a guard at another Version is forgotten
 * instead, so that the writer reads the limits again. When another maker
 * made one of them first, its counters stand; either way the caller reads
 * or writes again.
 */
export async function makeCounters(
  operatorId: string,
  shard: number,
  meter: string,
  wanted: Pick<CounterWrite, 'rule' | 'periodKey'>[],
  now: Date,
  knownVersion?: number,
): Promise<void> {
  const guard = await getGuardCounters(operatorId, shard, meter);
  if (!guard || (knownVersion !== undefined && guard.version !== knownVersion)) {
    forgetGuard(operatorId, meter);
    return;
  }
  // The guard's own rules: a limit no longer among them (deleted, or changed since) has no counter to make.
  const rules = new Map(guard.limits.filter((rule) => rule.Enforcement === 'NONE').map((rule) => [rule.GateKey, rule]));
  const missing = new Map<string, { rule: LimitRule; periodKey: string }>();
  for (const { rule, periodKey } of wanted) {
    const name = counterName(rule.GateKey, periodKey);
    const own = rules.get(rule.GateKey);
    if (own && !guard.counters.includes(name)) missing.set(name, { rule: own, periodKey });
  }
  if (!missing.size) return;
  const cost = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 };
  const made = await Promise.all(
    [...missing].map(async ([name, { rule, periodKey }]) => {
      const period = periodOfKey(rule.Period, rule.TimeZone, periodKey);
      return { name, used: await usedInPeriod(operatorId, { Meter: meter, Filter: rule.Filter }, period, cost, [shard]) };
    }),
  );
  const removed = prunedCounters(guard.counters, new Set(rules.keys()), [...missing.keys()]);
  try {
    await documentClient().send(new UpdateCommand(makeUpdate(operatorId, shard, meter, guard, made, removed, now)));
  } catch (error) {
    // Since the guard was read, the limits changed, counters were removed, or another maker made one of these first: the caller reads again.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
