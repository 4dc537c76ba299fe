import { createHash } from 'node:crypto';
import { FEED_SHARDS } from '../db/change-keys';
import { getFeedPosition } from './repository';

/**
 * Which shard of its operator's changes feed a timeslot's entries are in:
 * always the same one, spread by a hash of the timeslot, so that timeslots
 * announced at once take positions in different shards rather than all
 * queueing on one counter.
 */
export const shardOf = (slot: { ActivityID: string; Date: string; Time: string }): number =>
  createHash('sha256').update(`${slot.ActivityID}#${slot.Date}#${slot.Time}`, 'utf8').digest()[0] % FEED_SHARDS;

/**
 * The last position this process saw of each shard: an announcement tries it
 * first, and reads the shard's position only when its condition says the
 * position moved (another process took positions meanwhile).
 */
const lastSeen = new Map<string, number>();
const shardName = (operatorId: string, shard: number) => `${operatorId}#${shard}`;

export async function knownPosition(operatorId: string, shard: number): Promise<number> {
  const name = shardName(operatorId, shard);
  const known = lastSeen.get(name);
  if (known !== undefined) return known;
  const read = await getFeedPosition(operatorId, shard);
  lastSeen.set(name, read);
  return read;
}

export const positionTaken = (operatorId: string, shard: number, position: number) => lastSeen.set(shardName(operatorId, shard), position);

export const positionMoved = (operatorId: string, shard: number) => lastSeen.delete(shardName(operatorId, shard));
