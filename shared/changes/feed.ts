import { createHash } from 'node:crypto';
import type { Caller } from '../core/caller';
import { queryVisibleProducts } from '../catalog/repository';
import { config } from '../core/config';
import { GoneError } from '../core/errors';
import { CURSOR_LIFETIME_MS, DEFAULT_FEED_LIMIT, FEED_RETENTION_SECONDS, type AvailabilityChange, type FeedEntryItem } from './model';
import { getFeedPosition, queryFeed } from './repository';

/**
 * The changes feed, for partners that pull: the latest announcement of each
 * timeslot changed since a cursor, oldest first. The operator's entries sit
 * at positions taken in commit order and are read with consistent Queries,
 * so a reader that has read to a position has seen every entry that will
 * ever be below it: no change is skipped however writers and readers
 * interleave. A timeslot announced again moves to the new position, so a
 * reader sees each timeslot once, as it is now. A cursor names a position,
 * its operator and the instant its reader had everything up to it; it is
 * good for CURSOR_LIFETIME_MS (entries are kept longer), after which the
 * partner syncs in full.
 */
export interface ChangesPage {
  Changes: AvailabilityChange[];
  Cursor: string;
  /** More changes wait after this page: ask again with its Cursor at once. */
  HasMore: boolean;
}

/** Eight hex digits of the operator's hash: a cursor is taken only by the operator it was issued to. */
const operatorTag = (operatorId: string) => createHash('sha256').update(operatorId, 'utf8').digest('hex').slice(0, 8);

const encodeCursor = (operatorId: string, position: number, since: number) =>
  Buffer.from(`c1 ${operatorTag(operatorId)} ${position} ${since}`, 'utf8').toString('base64url');

/** A cursor the feed no longer answers (past its lifetime, or never one of these changes): the partner syncs in full. */
export class CursorExpiredError extends GoneError {
  override readonly reason = 'cursor-expired';

  static because(why: string): CursorExpiredError {
    const advice = "read availability in full, then follow the changes from the Cursor of a request without 'since'";
    return new CursorExpiredError(`${why}; ${advice}`, { field: 'since' });
  }
}

function decodeCursor(operatorId: string, cursor: string, now: Date, current: number): number {
  const [version, tag, position, since, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(' ');
  const valid =
    version === 'c1' &&
    tag === operatorTag(operatorId) &&
    !rest.length &&
    /^\d{1,16}$/.test(position ?? '') &&
    /^\d{1,16}$/.test(since ?? '');
  if (!valid || Number(position) > current) throw CursorExpiredError.because('is not a cursor of these changes');
  if (now.getTime() - Number(since) > CURSOR_LIFETIME_MS) throw CursorExpiredError.because('is older than the 7 days changes are kept');
  return Number(position);
}

const announcedAtMs = (entry: FeedEntryItem) => (entry.ExpiresAt - FEED_RETENTION_SECONDS) * 1000;

const changeOf = (entry: FeedEntryItem): AvailabilityChange => ({
  ActivityID: entry.ActivityID,
  Date: entry.Date,
  Time: entry.Time,
  Status: entry.Status,
  Vacancies: entry.Vacancies,
  Capacity: entry.Capacity,
  ChangedAt: entry.ChangedAt,
  Sequence: entry.Sequence,
});

export async function readChanges(
  caller: Caller,
  query: { since?: string; limit?: string },
  now: Date = config().clock(),
): Promise<ChangesPage> {
  const current = await getFeedPosition(caller.operatorId);
  if (query.since === undefined) return { Changes: [], Cursor: encodeCursor(caller.operatorId, current, now.getTime()), HasMore: false };
  const after = decodeCursor(caller.operatorId, query.since, now, current);
  const { entries, more } = await queryFeed(caller.operatorId, after, query.limit === undefined ? DEFAULT_FEED_LIMIT : Number(query.limit));
  if (!entries.length) return { Changes: [], Cursor: encodeCursor(caller.operatorId, after, now.getTime()), HasMore: false };
  // Hidden products' timeslots are never listed, whatever they were when announced.
  const visible = new Set((await queryVisibleProducts(caller.operatorId)).map((product) => product.ActivityID));
  const last = entries[entries.length - 1];
  // Caught up, the reader has everything to now; mid-way, everything to the last entry's announcement, and all after it is newer.
  const since = more ? announcedAtMs(last) : now.getTime();
  return {
    Changes: entries.filter((entry) => visible.has(entry.ActivityID)).map(changeOf),
    Cursor: encodeCursor(caller.operatorId, last.Position, since),
    HasMore: more,
  };
}
