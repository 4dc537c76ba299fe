import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { tableName } from '../db/client';
import * as limitKeys from '../db/limit-keys';
import type { ItemKey } from '../db/keys';
import { transactionCancellation } from '../db/transaction-errors';
import { parseMicros } from './decimal';
import type { KnownGuard } from './guards';
import { forgetGuard } from './guards';
import { decimalText, guardItem, type CounterWrite, type GuardWrite } from './limit-counters';
import { GATE_RETENTION_SECONDS, type LimitRule } from './limit-model';
import type { CountRef } from './limit-repository';
import { countable, periodAt, periodOfKey } from './limit-periods';
import { usedInPeriod } from './period-usage';
import { writeTransaction } from './repository';
import type { Dimensions } from './schemas';

/**
 * What a meter's limits count of the entries of a transaction, and a
 * REFUSE limit's gates: its count of each period, written in the transaction
 * of every entry (and void) it counts, so that the count is exactly the
 * usage of those entries. A REFUSE limit's one gate per period is its
 * condition: `Used <= Amount − usage`, a single attribute compared, so
 * however many write at once Used never passes the Amount. (A NONE limit
 * counts in its meter's guards: limit-counters.ts.)
 *
 * A gate is made from the aggregates the first time a write needs it (the
 * entries recorded before the limit, or before the period's first write,
 * included), and every write needs it to exist: while it does not, no
 * entry it would count can be written, so the aggregates it is made from
 * cannot move under it. Its transaction checks the meter's guard, so a gate
 * is never made under limits that changed meanwhile.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What a limit counts of an entry: its meter, its time, its dimensions and its usage. */
export interface CountedEntry {
  meter: string;
  occurredAt: number;
  dimensions?: Dimensions;
  usage: number | string;
}

/** One REFUSE gate a transaction writes: which limit and period, and what its entries add (millionths, negative for a void). */
export interface GateWrite {
  key: ItemKey;
  meter: string;
  rule: LimitRule;
  periodKey: string;
  usage: bigint;
  /** The positions (in the list given) of the entries it counts. */
  entries: number[];
}

/** What limits add to a transaction: each meter's guard (with its NONE limits' counters), and the REFUSE gates its entries count in. */
export interface LimitWrites {
  guards: GuardWrite[];
  gates: GateWrite[];
}

/** Where a gate's count is read: its Used, ordered by its Version. */
export const gateCount = (key: ItemKey): CountRef => ({ key, used: 'Used', version: 'Version' });

/** Whether an entry's dimensions have every value of the filter (entries without dimensions match none), as a summary's filter counts. */
export const matchesFilter = (filter: Record<string, string> | undefined, dimensions: Dimensions | undefined): boolean =>
  Object.entries(filter ?? {}).every(
    ([key, value]) => dimensions !== undefined && Object.hasOwn(dimensions, key) && dimensions[key] === value,
  );

/**
 * What the entries of a transaction count in: for each of their meters its
 * guard, at the Version known, and for each limit of an entry's meter whose
 * filter it matches, the period of its time, from the period the limit
 * applies from on (earlier periods are outside it): a NONE limit's counter
 * in the guard, a REFUSE limit's gate.
 */
export function limitWrites(operatorId: string, entries: CountedEntry[], guards: Map<string, KnownGuard>, sign: 1 | -1 = 1): LimitWrites {
  const guardWrites = new Map<string, GuardWrite>();
  const counters = new Map<string, CounterWrite>();
  const gates = new Map<string, GateWrite>();
  entries.forEach((entry, position) => {
    const guard = guards.get(entry.meter) as KnownGuard;
    let guardWrite = guardWrites.get(entry.meter);
    if (!guardWrite) guardWrites.set(entry.meter, (guardWrite = { meter: entry.meter, version: guard.version, counters: [] }));
    const usage = BigInt(sign) * parseMicros(String(entry.usage));
    for (const rule of guard.limits) {
      if (!matchesFilter(rule.Filter, entry.dimensions)) continue;
      const period = periodAt(rule.Period, rule.TimeZone, entry.occurredAt);
      if (period.start < rule.AppliesFrom || !countable(period)) continue;
      const id = `${entry.meter}|${rule.GateKey}|${period.key}`;
      if (rule.Enforcement === 'NONE') {
        let counter = counters.get(id);
        if (!counter) {
          counters.set(id, (counter = { rule, periodKey: period.key, usage: 0n }));
          guardWrite.counters.push(counter);
        }
        counter.usage += usage;
        continue;
      }
      let gate = gates.get(id);
      if (!gate) {
        const key = limitKeys.gate(operatorId, rule.GateKey, period.key);
        gates.set(id, (gate = { key, meter: entry.meter, rule, periodKey: period.key, usage: 0n, entries: [] }));
      }
      gate.usage += usage;
      gate.entries.push(position);
    }
  });
  return { guards: [...guardWrites.values()], gates: [...gates.values()] };
}

/**
 * The Update of a gate: Used and Version move on, only if the gate exists,
 * and for entries only if Used stays within the Amount (a void always
 * takes usage back out).
 */
export function gateUpdate(write: GateWrite): TransactItem {
  const refuses = write.usage > 0n;
  return {
    Update: {
      TableName: tableName(),
      Key: write.key,
      UpdateExpression: 'ADD Used :used, Version :one',
      ConditionExpression: refuses ? 'Used <= :ceiling' : 'attribute_exists(PK)',
      ExpressionAttributeValues: {
        ':used': decimalText(write.usage),
        ':one': 1,
        ...(refuses ? { ':ceiling': decimalText(parseMicros(write.rule.Amount) - write.usage) } : {}),
      },
    },
  };
}

/**
 * Makes a gate from the aggregates: Used is its period's usage as a
 * summary counts it, and Version starts at the milliseconds of `now`, so
 * that a gate made again after it expired orders after every reading of
 * the one before. A gate someone else made
 * first stands; a guard that moved meanwhile is forgotten, and either way
 * the caller reads again.
 */
export async function makeGate(
  operatorId: string,
  gate: Pick<GateWrite, 'key' | 'meter' | 'rule' | 'periodKey'>,
  guardVersion: number,
  now: Date,
): Promise<void> {
  const period = periodOfKey(gate.rule.Period, gate.rule.TimeZone, gate.periodKey);
  const cost = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 };
  const used = await usedInPeriod(operatorId, { Meter: gate.meter, Filter: gate.rule.Filter }, period, cost);
  try {
    await writeTransaction({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...gate.key,
              Entity: 'UsageGate',
              OperatorID: operatorId,
              LimitID: gate.rule.LimitID,
              GateKey: gate.rule.GateKey,
              PeriodKey: gate.periodKey,
              Used: decimalText(used),
              Version: now.getTime(),
              ExpiresAt: Math.max(period.end, unixSeconds(now)) + GATE_RETENTION_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        guardItem(operatorId, 0, { meter: gate.meter, version: guardVersion, counters: [] }),
      ],
    });
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    if (cancellation.conditionFailed(1)) forgetGuard(operatorId, gate.meter);
  }
}
