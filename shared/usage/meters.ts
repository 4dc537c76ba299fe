import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../core/errors';
import { oneAtATime } from '../core/one-at-a-time';
import { RETRY, retrying } from '../core/retry';
import { tableName } from '../db/client';
import { countMove } from '../db/counts';
import * as usageKeys from '../db/usage-keys';
import { transactionCancellation } from '../db/transaction-errors';
import { isBuiltInMeter } from './built-in-meters';
import { MAX_METERS } from './model';
import { getMeterCount, getRegisteredMeters, writeTransaction } from './repository';

/**
 * An operator's custom meters. A meter is registered once, before the first
 * entry of it is written, outside that entry's transaction (as combinations
 * of dimensions are): the operator's meter count moves on with a condition
 * in the same transaction that writes the new meters' items, so the limit
 * holds however many requests meet new meters at once. Built-in meters are
 * never registered nor counted. Registrations never change, so every process
 * keeps the meters it has seen, and entries of known meters read nothing.
 */

/** Known registrations, bounded: a long-lived process forgets the oldest and reads them again when needed. */
const CACHE_LIMIT = 100_000;
const known = new Set<string>();
const knownKey = (operatorId: string, meter: string) => JSON.stringify([operatorId, meter]);

function remember(operatorId: string, meter: string): void {
  if (known.size >= CACHE_LIMIT) known.delete(known.values().next().value as string);
  known.add(knownKey(operatorId, meter));
}

/** A meter an entry names, and the field to name if the meter is refused. */
export interface MeterRequest {
  meter: string;
  field: string;
}

const limitExceeded = ({ meter, field }: MeterRequest, count: number) =>
  new ValidationError(
    `names the new meter '${meter}', which would be this operator's meter number ${count}, over the limit of ${MAX_METERS} custom meters per operator (built-in meters not counted); nothing was recorded`,
    { field },
  );

/**
 * Registers an operator's new meters: the count moves from `count` on, only
 * if no other request changed it meanwhile (item 0), and each meter's item is
 * written only if the meter is not registered yet.
 */
export function registerMetersTransaction(operatorId: string, count: number, meters: string[], now: Date): TransactWriteCommandInput {
  return {
    TransactItems: [
      countMove(usageKeys.meterCount(operatorId), 'UsageMeterCount', count, count + meters.length),
      ...meters.map((meter) => ({
        Put: {
          TableName: tableName(),
          Item: { ...usageKeys.meter(operatorId, meter), Entity: 'UsageMeter', Meter: meter, RegisteredAt: now.toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      })),
    ],
  };
}

/**
 * Registers the new meters, checking the limit against the count read on
 * each attempt; when a racing request changed the count first, reads again.
 */
async function registerAll(operatorId: string, fresh: MeterRequest[], now: Date): Promise<void> {
  const isKnown = (request: MeterRequest) => known.has(knownKey(operatorId, request.meter));
  await retrying('Registering meters', async () => {
    const open = fresh.filter((request) => !isKnown(request));
    if (!open.length) return true;
    const count = await getMeterCount(operatorId);
    if (count + open.length > MAX_METERS) {
      // The first new meter past the limit, in the order the request sent them.
      const over = Math.max(0, MAX_METERS - count);
      throw limitExceeded(open[over], count + over + 1);
    }
    try {
      await writeTransaction(
        registerMetersTransaction(
          operatorId,
          count,
          open.map((request) => request.meter),
          now,
        ),
      );
    } catch (error) {
      if (!transactionCancellation(error)) throw error;
      // Another request registered meters first (some of these, perhaps): read again.
      for (const meter of await getRegisteredMeters(
        operatorId,
        open.map((request) => request.meter),
      ))
        remember(operatorId, meter);
      return RETRY;
    }
    for (const request of open) remember(operatorId, request.meter);
    return true;
  });
}

/** An operator's registrations in this process take turns (see oneAtATime). */
const register = oneAtATime();

/**
 * Registers the custom meters of `requests` that the operator has not met
 * yet, within its limit: past it the request is refused, naming the first
 * meter over the limit, before anything of it is written.
 */
export async function registerNewMeters(operatorId: string, requests: MeterRequest[], now: Date): Promise<void> {
  // Each meter once, as its first entry names it.
  const firsts = new Map<string, MeterRequest>();
  for (const request of requests) if (!firsts.has(request.meter)) firsts.set(request.meter, request);
  const unknown = [...firsts.values()].filter(({ meter }) => !isBuiltInMeter(meter) && !known.has(knownKey(operatorId, meter)));
  if (!unknown.length) return;
  for (const meter of await getRegisteredMeters(
    operatorId,
    unknown.map((request) => request.meter),
  ))
    remember(operatorId, meter);
  const fresh = unknown.filter(({ meter }) => !known.has(knownKey(operatorId, meter)));
  if (fresh.length) await register(operatorId, () => registerAll(operatorId, fresh, now));
}

/**
 * Registers the custom meters that entries name but that have no
 * registration (recorded before meters were counted), whatever the limit:
 * they exist already, and go on being recorded. For the rebuild, run while
 * the operator records nothing. Answers how many it registered.
 */
export async function registerRecordedMeters(operatorId: string, meters: string[], now: Date): Promise<number> {
  const custom = [...new Set(meters)].filter((meter) => !isBuiltInMeter(meter));
  const registered = new Set(await getRegisteredMeters(operatorId, custom));
  const missing = custom.filter((meter) => !registered.has(meter));
  // The count item and 99 meters fill one transaction.
  for (let start = 0; start < missing.length; start += 99) {
    const part = missing.slice(start, start + 99);
    await writeTransaction(registerMetersTransaction(operatorId, await getMeterCount(operatorId), part, now));
    for (const meter of part) remember(operatorId, meter);
  }
  return missing.length;
}
