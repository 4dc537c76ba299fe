import { batchGet } from '../db/batch';
import * as limitKeys from '../db/limit-keys';
import type { GuardItem, LimitRule } from './limit-model';

/**
 * The limits of each meter, as recording knows them: read once per process
 * from the meter's guard and remembered, so that entries of a meter read
 * nothing. What is remembered may be stale (a limit put or deleted since);
 * every recording transaction checks its shard's guard against the Version
 * it used, and one that finds it moved forgets it and reads it again. A
 * meter without limits has no guard: Version 0.
 */
export interface KnownGuard {
  version: number;
  limits: LimitRule[];
}

const NO_LIMITS: KnownGuard = { version: 0, limits: [] };

/** Bounded, as the meters' cache: a long-lived process forgets the oldest and reads them again. */
const CACHE_LIMIT = 100_000;
const known = new Map<string, KnownGuard>();
const knownKey = (operatorId: string, meter: string) => `${operatorId}\n${meter}`;

function remember(operatorId: string, meter: string, guard: KnownGuard): void {
  if (known.size >= CACHE_LIMIT) known.delete(known.keys().next().value as string);
  known.set(knownKey(operatorId, meter), guard);
}

/** Forgets a meter's guard after a transaction found it changed: the next attempt reads it again. */
export const forgetGuard = (operatorId: string, meter: string): boolean => known.delete(knownKey(operatorId, meter));

/** The guards of the meters (each once), read from `shard`'s copies (consistent) for those this process does not know. */
export async function guardsOf(operatorId: string, meters: string[], shard: number): Promise<Map<string, KnownGuard>> {
  const unknown = [...new Set(meters)].filter((meter) => !known.has(knownKey(operatorId, meter)));
  if (unknown.length) {
    const read = new Map<string, KnownGuard>();
    await batchGet(
      'Reading usage limit guards',
      unknown.map((meter) => limitKeys.guard(operatorId, shard, meter)),
      { projection: { expression: '#meter, Version, Limits', names: { '#meter': 'Meter' } } },
      (item) => {
        const guard = item as unknown as GuardItem;
        read.set(guard.Meter, { version: Number(guard.Version), limits: guard.Limits });
      },
    );
    for (const meter of unknown) remember(operatorId, meter, read.get(meter) ?? NO_LIMITS);
  }
  return new Map(meters.map((meter) => [meter, known.get(knownKey(operatorId, meter)) as KnownGuard]));
}
