import { createHash } from 'node:crypto';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../core/errors';
import { canonicalJson } from '../core/idempotency';
import { oneAtATime } from '../core/one-at-a-time';
import { RETRY, retrying } from '../core/retry';
import { tableName } from '../db/client';
import * as usageKeys from '../db/usage-keys';
import { transactionCancellation } from '../db/transaction-errors';
import { dimensionsAttribute, MAX_DIMENSION_COMBINATIONS } from './model';
import type { Dimensions } from './schemas';
import {
  getCombinationCounts,
  getCombinationsByDimensions,
  getCombinationsByNumber,
  writeTransaction,
  type CombinationItem,
} from './repository';

/**
 * Dimensions combinations. Each distinct set of dimensions an entry of a
 * meter carries is a combination of that meter, numbered 1, 2, 3 ... in the
 * order the meter met them; aggregates keep a total per combination number
 * (`U<n>`, `E<n>`), so attribute names stay short whatever the dimensions
 * say. A combination is registered once, before the first entry that carries
 * it is written, outside that entry's transaction: the per-meter count is
 * written only when a meter meets a new combination, never by entries of
 * known ones. Registrations never change, so every process keeps what it has
 * seen, and reads or writes the registry only for combinations it has not.
 */

/** Entries carry dimensions sorted by key, so that one set of dimensions has one form whatever the order sent. */
export function canonicalDimensions(dimensions: Dimensions | undefined): Dimensions | undefined {
  if (!dimensions) return undefined;
  const keys = Object.keys(dimensions).sort();
  return keys.length ? Object.fromEntries(keys.map((key) => [key, dimensions[key]])) : undefined;
}

/** A dimension's value, or null when the dimensions lack the key (an own key only: `constructor` is a key like any other). */
export const dimensionValue = (dimensions: Dimensions, key: string): string | null =>
  Object.hasOwn(dimensions, key) ? dimensions[key] : null;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Known registrations, bounded: a long-lived process forgets the oldest and reads them again when needed. */
const CACHE_LIMIT = 100_000;
const numbers = new Map<string, number>();
const dimensionsByNumber = new Map<string, Dimensions>();

function remember(operatorId: string, { Meter, Combination, Dimensions }: CombinationItem): void {
  for (const cache of [numbers, dimensionsByNumber]) if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  numbers.set(byDimensionsKey(operatorId, Meter, canonicalJson(Dimensions)), Combination);
  dimensionsByNumber.set(byNumberKey(operatorId, Meter, Combination), Dimensions);
}

const byDimensionsKey = (operatorId: string, meter: string, canonical: string) => JSON.stringify([operatorId, meter, canonical]);
const byNumberKey = (operatorId: string, meter: string, combination: number) => JSON.stringify([operatorId, meter, combination]);

/** An entry's meter and dimensions, and the field to name if its combination is refused. */
export interface CombinationRequest {
  meter: string;
  dimensions: Dimensions;
  field: string;
}

interface Wanted extends CombinationRequest {
  canonical: string;
  dimensionsHash: string;
}

const limitExceeded = (meter: string, field: string, total: number) =>
  new ValidationError(
    `would bring meter '${meter}' to ${total} distinct combinations of Dimensions, over the limit of ${MAX_DIMENSION_COMBINATIONS} per meter; nothing was recorded`,
    { field },
  );

async function readByDimensions(operatorId: string, wanted: Wanted[]): Promise<void> {
  for (const item of await getCombinationsByDimensions(operatorId, wanted)) remember(operatorId, item);
}

const isKnown = (operatorId: string) => (wanted: Wanted) => numbers.has(byDimensionsKey(operatorId, wanted.meter, wanted.canonical));

/** DynamoDB takes 100 items in one transaction: a count per meter and two items per combination. */
const MAX_TRANSACTION_ITEMS = 100;

/** The next transaction's share of the open combinations: whole meters while they fit, or as much of the first as fits. */
function nextRegistration(open: Wanted[]): Wanted[] {
  const taken: Wanted[] = [];
  let items = 0;
  for (const meter of new Set(open.map((one) => one.meter))) {
    const mine = open.filter((one) => one.meter === meter);
    const room = Math.floor((MAX_TRANSACTION_ITEMS - items - 1) / 2);
    if (room < 1) break;
    taken.push(...mine.slice(0, room));
    items += 1 + 2 * Math.min(room, mine.length);
    if (mine.length > room) break;
  }
  return taken;
}

/**
 * Registers new combinations of meters' dimensions, each meter's numbered
 * after the `count` it has: each combination is found by the SHA-256 of its
 * canonical dimensions and by its number, and each meter's count moves on,
 * only if no other request changed it meanwhile and none of the
 * combinations exists yet.
 */
export function registerCombinationsTransaction(
  operatorId: string,
  registrations: { meter: string; count: number; combinations: { dimensionsHash: string; dimensions: Dimensions }[] }[],
): TransactWriteCommandInput {
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
  for (const { meter, count, combinations } of registrations) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: usageKeys.combinationCount(operatorId, meter),
        UpdateExpression: 'SET Entity = :entity, #meter = :meter, #count = :next',
        ConditionExpression: count === 0 ? 'attribute_not_exists(PK)' : '#count = :count',
        ExpressionAttributeNames: { '#meter': 'Meter', '#count': 'Count' },
        ExpressionAttributeValues: {
          ':entity': 'UsageCombinationCount',
          ':meter': meter,
          ':next': count + combinations.length,
          ...(count === 0 ? {} : { ':count': count }),
        },
      },
    });
    combinations.forEach(({ dimensionsHash, dimensions }, i) => {
      const item = { Entity: 'UsageCombination', Meter: meter, Combination: count + 1 + i, Dimensions: dimensionsAttribute(dimensions) };
      for (const key of [
        usageKeys.combinationByDimensions(operatorId, meter, dimensionsHash),
        usageKeys.combinationByNumber(operatorId, meter, count + 1 + i),
      ]) {
        items.push({ Put: { TableName: tableName(), Item: { ...key, ...item }, ConditionExpression: 'attribute_not_exists(PK)' } });
      }
    });
  }
  return { TransactItems: items };
}

/**
 * Registers new combinations, numbered after those their meters have, in as
 * few transactions as DynamoDB allows; when a racing request registers first,
 * reads again. Each meter's limit is checked again on every attempt.
 */
async function registerAll(operatorId: string, fresh: Wanted[]): Promise<void> {
  const known = isKnown(operatorId);
  while (fresh.some((wanted) => !known(wanted))) {
    await retrying('Registering combinations of Dimensions', async () => {
      const open = fresh.filter((wanted) => !known(wanted));
      if (!open.length) return true;
      const meters = [...new Set(open.map((one) => one.meter))];
      const counts = await getCombinationCounts(operatorId, meters);
      for (const meter of meters) {
        const mine = open.filter((one) => one.meter === meter);
        const total = (counts.get(meter) ?? 0) + mine.length;
        if (total > MAX_DIMENSION_COMBINATIONS) throw limitExceeded(meter, mine[0].field, total);
      }
      const taken = nextRegistration(open);
      const registrations = [...new Set(taken.map((one) => one.meter))].map((meter) => ({
        meter,
        count: counts.get(meter) ?? 0,
        combinations: taken.filter((one) => one.meter === meter),
      }));
      try {
        await writeTransaction(registerCombinationsTransaction(operatorId, registrations));
      } catch (error) {
        if (!transactionCancellation(error)) throw error;
        // Another request registered some of them, or other combinations of their meters, first: read again.
        await readByDimensions(operatorId, open);
        return RETRY;
      }
      for (const { meter, count, combinations } of registrations) {
        combinations.forEach((one, i) => remember(operatorId, { Meter: meter, Combination: count + 1 + i, Dimensions: one.dimensions }));
      }
      return true;
    });
  }
}

/** An operator's registrations in this process take turns (see oneAtATime). */
const register = oneAtATime();

/**
 * The combination number of each request's dimensions, registering the
 * combinations a meter has not met yet. Every meter's limit is checked
 * before anything is registered, so a request over one meter's limit is
 * refused with nothing written.
 */
export async function combinationNumbers(operatorId: string, requests: CombinationRequest[]): Promise<number[]> {
  const wanted = requests.map((request): Wanted => {
    const canonical = canonicalJson(request.dimensions);
    return { ...request, canonical, dimensionsHash: sha256(canonical) };
  });
  const unknown = [
    ...new Map(wanted.filter((one) => !isKnown(operatorId)(one)).map((one) => [`${one.meter}\n${one.canonical}`, one])).values(),
  ];
  if (unknown.length) await readByDimensions(operatorId, unknown);
  const fresh = unknown.filter((one) => !isKnown(operatorId)(one));
  if (fresh.length) await register(operatorId, () => registerAll(operatorId, fresh));
  return wanted.map((one) => numbers.get(byDimensionsKey(operatorId, one.meter, one.canonical)) as number);
}

/**
 * The dimensions of combinations by meter and number, read from the registry
 * for those this process has not seen; `read` counts the registry items read.
 */
export async function dimensionsOfCombinations(
  operatorId: string,
  refs: { meter: string; combination: number }[],
  read: { items: number },
): Promise<(meter: string, combination: number) => Dimensions> {
  const missing = refs.filter(({ meter, combination }) => !dimensionsByNumber.has(byNumberKey(operatorId, meter, combination)));
  if (missing.length) {
    const items = await getCombinationsByNumber(operatorId, missing);
    read.items += items.length;
    for (const item of items) remember(operatorId, item);
  }
  const found = new Map(
    refs.map(({ meter, combination }) => {
      const key = byNumberKey(operatorId, meter, combination);
      const dimensions = dimensionsByNumber.get(key);
      // Combinations are registered before any aggregate counts them, and never removed.
      if (!dimensions) throw new Error(`Combination ${combination} of meter '${meter}' is not registered`);
      return [key, dimensions];
    }),
  );
  return (meter, combination) => found.get(byNumberKey(operatorId, meter, combination)) as Dimensions;
}
