import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { RETRY, retrying } from '../core/retry';
import { tableName } from '../db/client';
import * as limitKeys from '../db/limit-keys';
import { transactionCancellation } from '../db/transaction-errors';
import { newBusDelivery, newUsageWebhookDelivery, usageWebhookListens } from '../webhooks/events';
import type { DeliveryItem } from '../webhooks/model';
import { deliveryPut } from '../webhooks/repository';
import { parseMicros } from './decimal';
import { gateCount, makeGate } from './gates';
import { makeCounters } from './limit-counters';
import {
  counterName,
  GATE_RETENTION_SECONDS,
  THRESHOLD_EVENTS,
  USAGE_EVENT_SOURCE,
  type AlertStateItem,
  type LimitItem,
  type ThresholdEventType,
} from './limit-model';
import { countable, periodAt, periodOfKey, type LimitPeriodSpan } from './limit-periods';
import { getAlertState, getGuard, getLimitItem, readTogether, type CountRef } from './limit-repository';
import { crossedThresholds, statusOf } from './limit-status';
import { ALL_SHARDS } from './period-usage';
import { writeTransaction } from './repository';

/**
 * Threshold alerts, exactly once per (limit, threshold, period) crossing.
 * They are decided from the table's stream (functions/usage/watch-usage-limits.ts):
 * a count written (an entry, a void: a guard's counters, a REFUSE limit's
 * gate) or a limit put hands its limit and period here, which reads the
 * period's counts at one instant and moves the period's alert state from
 * what it was to the thresholds Used has reached, conditioned on the state
 * as read and on the reading being newer than the one it was decided on
 * (Order: the sum of the counts' versions). The deliveries of each
 * threshold crossed or gone back under (to EventBridge, and to the
 * operator's usage endpoint when it has one) are written in that same
 * transaction, so a redelivered record, or two read at once, decides a
 * crossing once, and nothing is sent that was not decided.
 */

/** A limit and, for a count's record, the period and GateKey it names; a limit's own record names its current period. */
export interface AlertTarget {
  operatorId: string;
  limitId: string;
  gateKey?: string;
  periodKey?: string;
}

/** The limit's definition and its period's counts read at one instant: Used, and the reading's place in the order of writes. */
interface Reading {
  limit: LimitItem;
  period: LimitPeriodSpan;
  used: bigint;
  revision: number;
  order: number;
}

/** Where a limit's period is counted: its counter in each shard's guard (NONE), or its one gate (REFUSE). */
const countsOf = (operatorId: string, limit: LimitItem, periodKey: string): (CountRef & { shard?: number })[] =>
  limit.Enforcement === 'NONE'
    ? ALL_SHARDS.map((shard) => ({
        key: limitKeys.guard(operatorId, shard, limit.Meter),
        used: counterName(limit.GateKey, periodKey),
        version: 'Writes',
        shard,
      }))
    : [gateCount(limitKeys.gate(operatorId, limit.GateKey, periodKey))];

/**
 * Reads the limit and its period's counts together (the target's period, or
 * for a limit's own record its current one), making any count that does not
 * exist yet from the aggregates first; undefined when the limit is gone,
 * counts under another GateKey now (a definition since replaced), or the
 * period is not one it counts.
 */
async function readPeriod(target: AlertTarget, now: Date): Promise<Reading | undefined> {
  const { operatorId } = target;
  return retrying('Reading usage limit counts', async () => {
    const limit = await getLimitItem(operatorId, target.limitId);
    if (!limit || (target.gateKey !== undefined && target.gateKey !== limit.GateKey)) return undefined;
    const span =
      target.periodKey === undefined
        ? periodAt(limit.Period, limit.TimeZone, unixSeconds(now))
        : periodOfKey(limit.Period, limit.TimeZone, target.periodKey);
    if (span.start < limit.AppliesFrom || !countable(span)) return undefined;
    const counts = countsOf(operatorId, limit, span.key);
    const read = await readTogether(limitKeys.limit(operatorId, limit.LimitID), counts);
    // A write in flight on one of the items, or a change of the limit between the two reads: read both again.
    if (!read || read.revision !== limit.Revision) return RETRY;
    const missing = counts.filter((_, i) => !read.counts[i]);
    if (missing.length) {
      if (limit.Enforcement === 'NONE') {
        const wanted = [{ rule: limit, periodKey: span.key }];
        await Promise.all(missing.map(({ shard }) => makeCounters(operatorId, shard as number, limit.Meter, wanted, now)));
      } else {
        const guard = await getGuard(operatorId, 0, limit.Meter);
        await makeGate(operatorId, { key: missing[0].key, meter: limit.Meter, rule: limit, periodKey: span.key }, guard?.Version ?? 0, now);
      }
      return RETRY;
    }
    const sum = read.counts.reduce(
      (total, reading) => ({ used: total.used + parseMicros(reading!.used), order: total.order + reading!.version }),
      { used: 0n, order: 0 },
    );
    return { limit, period: span, revision: limit.Revision, ...sum };
  });
}

/** Whether a period's alert state was decided on this reading, or a later one. */
const decidedOn = (state: AlertStateItem, reading: Reading) =>
  state.Revision > reading.revision || (state.Revision === reading.revision && state.Order >= reading.order);

/** The deliveries of one threshold event: to EventBridge always, to the operator's usage endpoint when it has one. */
function deliveriesOf(operatorId: string, type: ThresholdEventType, data: unknown, listens: boolean, now: Date): DeliveryItem[] {
  const bus = newBusDelivery(operatorId, type, data, now, { source: USAGE_EVENT_SOURCE, detailType: THRESHOLD_EVENTS[type] });
  return listens ? [bus, newUsageWebhookDelivery(operatorId, type, data, now)] : [bus];
}

/** Decides the alerts of one limit's period as its counts now stand; returns the events it wrote. */
export async function evaluateLimitPeriod(target: AlertTarget, now: Date = config().clock()): Promise<ThresholdEventType[]> {
  const { operatorId } = target;
  const listens = await usageWebhookListens(operatorId);
  return retrying('Deciding usage threshold alerts', async () => {
    const reading = await readPeriod(target, now);
    if (!reading) return [];
    const { limit, period } = reading;
    const stateKey = limitKeys.alerts(operatorId, limit.GateKey, period.key);
    const state = await getAlertState(stateKey);
    if (state && decidedOn(state, reading)) return [];
    const crossed = crossedThresholds(limit, reading.used);
    const before = state?.Crossed ?? [];
    const events: [ThresholdEventType, number][] = [
      ...crossed
        .filter((percent) => !before.includes(percent))
        .map((percent): [ThresholdEventType, number] => ['usage.threshold.crossed', percent]),
      ...before
        .filter((percent) => limit.Thresholds.includes(percent) && !crossed.includes(percent))
        .map((percent): [ThresholdEventType, number] => ['usage.threshold.resolved', percent]),
    ];
    const status = statusOf(limit, period, reading.used);
    const deliveries = events.flatMap(([type, percent]) =>
      deliveriesOf(operatorId, type, { ...status, Threshold: percent, Period: limit.Period }, listens, now),
    );
    const statePut = {
      TableName: tableName(),
      Item: {
        ...stateKey,
        Entity: 'UsageAlertState',
        OperatorID: operatorId,
        LimitID: limit.LimitID,
        Crossed: crossed,
        Revision: reading.revision,
        Order: reading.order,
        ExpiresAt: Math.max(period.end, unixSeconds(now)) + GATE_RETENTION_SECONDS,
      },
      // Moved from the state as read, and only from it: of two readings decided at once, one writes, the other reads again.
      ConditionExpression: state ? 'Revision = :revision AND #order = :order' : 'attribute_not_exists(PK)',
      ...(state
        ? {
            ExpressionAttributeNames: { '#order': 'Order' },
            ExpressionAttributeValues: { ':revision': state.Revision, ':order': state.Order },
          }
        : {}),
    };
    try {
      await writeTransaction({ TransactItems: [{ Put: statePut }, ...deliveries.map(deliveryPut)] });
    } catch (error) {
      if (transactionCancellation(error)) return RETRY;
      throw error;
    }
    return events.map(([type]) => type);
  });
}
