import { operatorPartition, type ItemKey } from './keys';
import { USAGE_LEVELS, type UsageLevel } from './usage-levels';

/*
 * Usage metering. Entries and their aggregates are spread over numbered
 * shards so that one busy operator or meter does not exceed a partition's or
 * an item's write limit. An entry lives in the shard its ID selects, and is
 * added to the hour, day and month aggregates of its meter in the same shard;
 * each level of aggregate has a partition of its own per shard, so one entry
 * writes to four partitions, each at most once.
 */
const usageShardPartition = (operatorId: string, kind: string, shard: number) => `${operatorPartition(operatorId)}#USAGE#${kind}#${shard}`;

export type IdempotencyOrigin = 'client' | 'platform-event';

/** IDs are zero-padded to 16 digits (2^53 has 16), so the sort key orders entries by ID, that is by recording time. */
export const entry = (operatorId: string, shard: number, id: number): ItemKey => ({
  PK: usageShardPartition(operatorId, 'ENTRIES', shard),
  SK: `ENTRY#${String(id).padStart(16, '0')}`,
});

export const entryPrefix = (operatorId: string, shard: number) => ({
  PK: usageShardPartition(operatorId, 'ENTRIES', shard),
  SKPrefix: 'ENTRY#',
});

/** `bucket` is the UTC hour `YYYY-MM-DDTHH`, day `YYYY-MM-DD` or month `YYYY-MM`. */
export const aggregate = (operatorId: string, shard: number, level: UsageLevel, bucket: string, meter: string): ItemKey => ({
  PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
  SK: `${USAGE_LEVELS[level].prefix}#${bucket}#${meter}`,
});

/** Inclusive SK bounds covering every meter's aggregate of one level from the first bucket to the last. */
export const aggregateRange = (operatorId: string, shard: number, level: UsageLevel, firstBucket: string, lastBucket: string) => ({
  PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
  SKFrom: `${USAGE_LEVELS[level].prefix}#${firstBucket}#`,
  // '~' sorts after every character a meter name can contain, so every meter of the last bucket is included.
  SKTo: `${USAGE_LEVELS[level].prefix}#${lastBucket}#~`,
});

/** Every aggregate of one level in one shard (the rebuild's view). */
export const aggregatePrefix = (operatorId: string, shard: number, level: UsageLevel) => ({
  PK: usageShardPartition(operatorId, USAGE_LEVELS[level].partition, shard),
  SKPrefix: `${USAGE_LEVELS[level].prefix}#`,
});

/**
 * The custom meters of an operator, in one partition written only when a
 * meter is met for the first time: the count, and an item per meter.
 */
export const meterCount = (operatorId: string): ItemKey => ({ PK: `${operatorPartition(operatorId)}#USAGE#METERS`, SK: 'COUNT' });

export const meter = (operatorId: string, meter: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#METERS`,
  SK: `METER#${meter}`,
});

/**
 * The Dimensions combinations of an operator's meters, in one partition
 * written only when a meter meets a combination for the first time: per
 * meter a count, and per combination its number (found by the SHA-256 of
 * its canonical JSON) and its dimensions (found by its number).
 */
export const combinationCount = (operatorId: string, meter: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
  SK: `COUNT#${meter}`,
});

export const combinationByDimensions = (operatorId: string, meter: string, dimensionsHash: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
  SK: `DIMENSIONS#${meter}#${dimensionsHash}`,
});

export const combinationByNumber = (operatorId: string, meter: string, combination: number): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#COMBINATIONS`,
  SK: `NUMBER#${meter}#${combination}`,
});

/**
 * Clients' idempotency keys (the Idempotency-Key header and batch entries'
 * Identifiers share one space) and platform event IDs are kept apart, so
 * neither can block the other.
 */
export const idempotencyRecord = (operatorId: string, origin: IdempotencyOrigin, idempotencyKeyHash: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#USAGE#IDEMPOTENCY#${origin === 'client' ? 'CLIENT' : 'EVENT'}#${idempotencyKeyHash}`,
  SK: 'IDEMPOTENCY',
});
