import { randomInt } from 'node:crypto';

/**
 * Entry IDs: integers that are unique within an operator and ordered by the
 * time they were recorded, made without a counter item that every write
 * would contend for. 41 bits of milliseconds since 2020-01-01T00:00:00Z
 * (enough until 2089) and 12 random bits make a 53-bit integer, exact in a
 * JavaScript number. Two entries of one operator drawing the same ID in the
 * same millisecond (1 in 4096) are caught by the entry's conditional write,
 * which is then retried with a fresh ID.
 */
const ID_EPOCH_MS = Date.UTC(2020, 0, 1);
const RANDOM_BITS = 12;
const RANDOM_RANGE = 2 ** RANDOM_BITS;

export function newUsageId(nowMs: number = Date.now()): number {
  return (nowMs - ID_EPOCH_MS) * RANDOM_RANGE + randomInt(RANDOM_RANGE);
}

/**
 * The aggregate shard an entry adds to: its ID's low (random) bits, so the
 * entry item and its aggregate land in the same shard number and a shard's
 * aggregates can be recomputed from that shard's entries alone.
 */
export const shardOf = (id: number, shards: number): number => id % RANDOM_RANGE % shards;
