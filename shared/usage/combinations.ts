import { createHash } from 'node:crypto';
import { ValidationError } from '../core/errors';
import { canonicalJson } from '../core/idempotency';
import { RETRY, retrying } from '../core/retry';
import { transactionCancellation } from '../db/transaction-errors';
import { MAX_DIMENSION_COMBINATIONS } from './model';
import type { Dimensions } from './schemas';
import {
  getCombinationCounts,
  getCombinationsByDimensions,
  getCombinationsByNumber,
  writeTransaction,
  type CombinationItem,
} from './repository';
import { registerCombinationsTransaction } from './usage-writes';

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

/** Two items per combination and the count: DynamoDB takes 100 items in one transaction. */
const COMBINATIONS_PER_TRANSACTION = 49;

/** Registers one meter's new combinations, numbered after those it has, reading again when a racing request registers first. */
async function registerMeter(operatorId: string, meter: string, fresh: Wanted[]): Promise<void> {
  const known = isKnown(operatorId);
  for (let start = 0; start < fresh.length; start += COMBINATIONS_PER_TRANSACTION) {
    const chunk = fresh.slice(start, start + COMBINATIONS_PER_TRANSACTION);
    await retrying(`Registering combinations of Dimensions of meter '${meter}'`, async () => {
      const open = chunk.filter((wanted) => !known(wanted));
      if (!open.length) return true;
      const count = (await getCombinationCounts(operatorId, [meter])).get(meter) ?? 0;
      const total = count + fresh.slice(start).filter((wanted) => !known(wanted)).length;
      if (total > MAX_DIMENSION_COMBINATIONS) throw limitExceeded(meter, open[0].field, total);
      try {
        await writeTransaction(registerCombinationsTransaction(operatorId, meter, count, open));
      } catch (error) {
        if (!transactionCancellation(error)) throw error;
        // Another request registered some of them, or another combination of the meter, first: read again.
        await readByDimensions(operatorId, open);
        return RETRY;
      }
      open.forEach((wanted, i) => remember(operatorId, { Meter: meter, Combination: count + 1 + i, Dimensions: wanted.dimensions }));
      return true;
    });
  }
}

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
  if (fresh.length) {
    const meters = [...new Set(fresh.map((one) => one.meter))];
    const counts = await getCombinationCounts(operatorId, meters);
    for (const meter of meters) {
      const mine = fresh.filter((one) => one.meter === meter);
      const total = (counts.get(meter) ?? 0) + mine.length;
      if (total > MAX_DIMENSION_COMBINATIONS) throw limitExceeded(meter, mine[0].field, total);
    }
    await Promise.all(
      meters.map((meter) =>
        registerMeter(
          operatorId,
          meter,
          fresh.filter((one) => one.meter === meter),
        ),
      ),
    );
  }
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
