import { activityPartition, operatorPartition, type ItemKey } from './keys';

/*
 * What partners hear of changes (shared/changes). Per timeslot, the record of
 * what was last announced, beside the timeslot in its activity's partition
 * (its SK is no SLOT#, so the stream's filter leaves it out); per product
 * likewise. Per operator, the changes feed in FEED_SHARDS shards: each a
 * position counter and one entry per timeslot at the position of its latest
 * announcement, in one partition read with consistent Queries, so positions
 * follow commit order within the shard. A timeslot stays in one shard.
 */
export const FEED_SHARDS = 8;

const changesPartition = (operatorId: string, shard: number) => `${operatorPartition(operatorId)}#CHANGES#${shard}`;

/** Positions are zero-padded to 16 digits, so the sort key orders entries by position. */
const feedSortKey = (position: number) => `CHANGE#${String(position).padStart(16, '0')}`;

export const timeslotAnnouncement = (operatorId: string, activityId: string, date: string, time: string): ItemKey => ({
  PK: activityPartition(operatorId, activityId),
  SK: `ANNOUNCED#${date}#${time}`,
});

export const productAnnouncement = (operatorId: string, activityId: string): ItemKey => ({
  PK: operatorPartition(operatorId),
  SK: `ANNOUNCED#PRODUCT#${activityId}`,
});

export const feedPosition = (operatorId: string, shard: number): ItemKey => ({ PK: changesPartition(operatorId, shard), SK: 'POSITION' });

export const feedEntry = (operatorId: string, shard: number, position: number): ItemKey => ({
  PK: changesPartition(operatorId, shard),
  SK: feedSortKey(position),
});

/** SK bounds of a shard's entries after `position`. */
export const feedAfter = (operatorId: string, shard: number, position: number) => ({
  PK: changesPartition(operatorId, shard),
  SKFrom: feedSortKey(position + 1),
  SKTo: 'CHANGE#~',
});
