import { randomInt } from 'node:crypto';

/**
 * Entry IDs: integers that are unique within an operator and ordered by the
 * time they were recorded, made without a counter item that every write
 * would contend for. 41 bits of milliseconds since 2020-01-01T00:00:00Z
 * (enough until 2089) and 12 random bits make a 53-bit integer, exact in a
 * JavaScript number. Two entries of one operator drawing the same ID in the
 * same millisecond are caught by the entry's conditional write, which is then
 * retried with fresh IDs.
 */
const ID_EPOCH_MS = Date.UTC(2020, 0, 1);
const RANDOM_BITS = 12;
const RANDOM_RANGE = 2 ** RANDOM_BITS;

/**
 * The aggregate shard an entry adds to: its ID's low (random) bits, so the
 * entry item and its aggregates land in the same shard number, a shard's
 * aggregates can be recomputed from that shard's entries alone, and an entry
 * is found again from its ID.
 */
export const shardOf = (id: number, shards: number): number => (id % RANDOM_RANGE) % shards;

/**
 * `count` distinct IDs of one millisecond that all fall in `shard`: a
 * transaction writes entries of one shard, so that entries of one meter and
 * hour share one aggregate increment. There are RANDOM_RANGE / shards such
 * IDs per millisecond; the caller keeps `count` well below that.
 */
export function newUsageIds(nowMs: number, shard: number, shards: number, count: number): number[] {
  const perShard = RANDOM_RANGE / shards;
  const drawn = new Set<number>();
  while (drawn.size < count) drawn.add(randomInt(perShard));
  return [...drawn].map((draw) => (nowMs - ID_EPOCH_MS) * RANDOM_RANGE + draw * shards + shard);
}

export const randomShard = (shards: number): number => randomInt(shards);
