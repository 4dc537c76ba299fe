import { NumberValue, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { tableName } from '../db/client';
import { limitKeys, type ItemKey } from '../db/keys';
import { transactionCancellation } from '../db/transaction-errors';
import { formatDecimal, microsToDecimal, parseMicros } from './decimal';
import type { KnownGuard } from './guards';
import { forgetGuard } from './guards';
import { GATE_RETENTION_SECONDS, type LimitRule } from './limit-model';
import { countable, periodAt, periodOfKey } from './limit-periods';
import { ALL_SHARDS, usedInPeriod } from './period-usage';
import { writeTransaction } from './repository';
import type { Dimensions } from './schemas';

/**
 * A limit's gates: its count of each period, written in the transaction of
 * every entry (and void) it counts, so that the count is exactly the usage
 * of those entries. A REFUSE limit's one gate per period is its condition:
 * `Used <= Amount − usage`, a single attribute compared, so however many
 * write at once Used never passes the Amount. A NONE limit counts in a gate
 * per period and aggregate shard, so it takes what the meter takes.
 *
 * A gate is made from the aggregates the first time a write needs it (the
 * entries recorded before the limit, or before the period's first write,
 * included), and every write needs it to exist: while it does not, no
 * entry it would count can be written, so the aggregates it is made from
 * cannot move under it. Its transaction checks the meter's guard, so a gate
 * is never made under limits that changed meanwhile.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What a gate counts of an entry: its meter, its time, its dimensions and its usage. */
export interface CountedEntry {
  meter: string;
  occurredAt: number;
  dimensions?: Dimensions;
  usage: number | string;
}

/** One gate a transaction writes: which limit and period, and what its entries add (millionths, negative for a void). */
export interface GateWrite {
  key: ItemKey;
  meter: string;
  rule: LimitRule;
  periodKey: string;
  /** NONE limits: the shard of the gate. */
  shard?: number;
  usage: bigint;
  /** The positions (in the list given) of the entries it counts. */
  entries: number[];
}

/** Whether an entry's dimensions have every value of the filter (entries without dimensions match none), as a summary's filter counts. */
export const matchesFilter = (filter: Record<string, string> | undefined, dimensions: Dimensions | undefined): boolean =>
  Object.entries(filter ?? {}).every(
    ([key, value]) => dimensions !== undefined && Object.hasOwn(dimensions, key) && dimensions[key] === value,
  );

/** The gate of a limit's period, in the shard a NONE limit counts it in. */
export const gateKey = (operatorId: string, rule: LimitRule, periodKey: string, shard: number): ItemKey =>
  limitKeys.gate(operatorId, rule.GateKey, periodKey, rule.Enforcement === 'NONE' ? shard : undefined);

/**
 * The gates entries written in `shard` count in: for each limit of an
 * entry's meter whose filter it matches, the period of its time, from the
 * period the limit applies from on (earlier periods are outside it).
 */
export function gateWrites(
  operatorId: string,
  shard: number,
  entries: CountedEntry[],
  guards: Map<string, KnownGuard>,
  sign: 1 | -1 = 1,
): GateWrite[] {
  const writes = new Map<string, GateWrite>();
  entries.forEach((entry, position) => {
    for (const rule of guards.get(entry.meter)?.limits ?? []) {
      if (!matchesFilter(rule.Filter, entry.dimensions)) continue;
      const period = periodAt(rule.Period, rule.TimeZone, entry.occurredAt);
      if (period.start < rule.AppliesFrom || !countable(period)) continue;
      const key = gateKey(operatorId, rule, period.key, shard);
      const id = `${key.PK}|${key.SK}`;
      let write = writes.get(id);
      if (!write) {
        write = { key, meter: entry.meter, rule, periodKey: period.key, usage: 0n, entries: [] };
        if (rule.Enforcement === 'NONE') write.shard = shard;
        writes.set(id, write);
      }
      write.usage += BigInt(sign) * parseMicros(String(entry.usage));
      write.entries.push(position);
    }
  });
  return [...writes.values()];
}

const decimalText = (micros: bigint) => NumberValue.from(formatDecimal(microsToDecimal(micros)));

/**
 * The Update of a gate: Used and Version move on, only if the gate exists,
 * and for a REFUSE limit's entries only if Used stays within the Amount
 * (a void always takes usage back out).
 */
export function gateUpdate(write: GateWrite): TransactItem {
  const refuses = write.rule.Enforcement === 'REFUSE' && write.usage > 0n;
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

/** The check that a meter's guard is still at the Version a transaction was built with (none: still no guard). */
export const guardCheck = (operatorId: string, shard: number, meter: string, version: number): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: limitKeys.guard(operatorId, shard, meter),
    ConditionExpression: version === 0 ? 'attribute_not_exists(PK)' : 'Version = :version',
    ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
  },
});

/**
 * Makes a gate from the aggregates: Used is its period's usage as a
 * summary counts it (in its shard, for a NONE limit), and Version starts at
 * the milliseconds of `now`, so that a gate made again after it expired
 * orders after every reading of the one before. A gate someone else made
 * first stands; a guard that moved meanwhile is forgotten, and either way
 * the caller reads again.
 */
export async function makeGate(
  operatorId: string,
  gate: Pick<GateWrite, 'key' | 'meter' | 'rule' | 'periodKey' | 'shard'>,
  guardVersion: number,
  now: Date,
): Promise<void> {
  const period = periodOfKey(gate.rule.Period, gate.rule.TimeZone, gate.periodKey);
  const cost = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 };
  const used = await usedInPeriod(
    operatorId,
    { Meter: gate.meter, Filter: gate.rule.Filter },
    period,
    cost,
    gate.shard === undefined ? ALL_SHARDS : [gate.shard],
  );
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
              ...(gate.shard === undefined ? {} : { Shard: gate.shard }),
              Used: decimalText(used),
              Version: now.getTime(),
              ExpiresAt: Math.max(period.end, unixSeconds(now)) + GATE_RETENTION_SECONDS,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        guardCheck(operatorId, gate.shard ?? 0, gate.meter, guardVersion),
      ],
    });
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    if (cancellation.conditionFailed(1)) forgetGuard(operatorId, gate.meter);
  }
}
