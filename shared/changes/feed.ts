import { createHash } from 'node:crypto';
import type { Caller } from '../core/caller';
import { queryVisibleProducts } from '../catalog/repository';
import { config } from '../core/config';
import { GoneError } from '../core/errors';
import { FEED_SHARDS } from '../db/change-keys';
import { CURSOR_LIFETIME_MS, DEFAULT_FEED_LIMIT, toldChange, type AvailabilityChange, type FeedEntryItem } from './model';
import { getFeedPosition, queryFeed } from './repository';

/**
 * The changes feed, for partners that pull: the latest announcement of each
 * timeslot changed since a cursor, oldest first. The operator's entries sit
 * in FEED_SHARDS shards, at positions taken in commit order within their
 * shard and read with consistent Queries, so a reader that has read a shard
 * to a position has seen every entry that will ever be below it: no change
 * is skipped however writers and readers interleave. A timeslot announced
 * again moves to a new position of its shard, so a reader sees each
 * timeslot once, as it is now. The shards' entries are listed together in
 * the order they were announced, each shard's in its own order. A cursor
 * names each shard's position, its operator and the instant from which its
 * reader has not read everything; it is good for CURSOR_LIFETIME_MS (entries
 * are kept longer), after which the partner syncs in full.
 */
export interface ChangesPage {
  Changes: AvailabilityChange[];
  Cursor: string;
  /** More changes wait after this page: ask again with its Cursor at once. */
  HasMore: boolean;
}

/** A cursor that is no longer answered (past its lifetime, or never one of these changes): the partner syncs in full. */
export class CursorExpiredError extends GoneError {
  override readonly reason = 'cursor-expired';

  static because(why: string): CursorExpiredError {
    const advice = "read availability in full, then follow the changes from the Cursor of a request without 'since'";
    return new CursorExpiredError(`${why}; ${advice}`, { field: 'since' });
  }
}

/** Eight hex digits of the operator's hash: a cursor is taken only by the operator it was issued to. */
const operatorTag = (operatorId: string) => createHash('sha256').update(operatorId, 'utf8').digest('hex').slice(0, 8);

interface Cursor {
  positions: number[];
  /** Every entry announced before this instant (epoch ms) has been read. */
  since: number;
}

const encodeCursor = (operatorId: string, cursor: Cursor) =>
  Buffer.from(`c1 ${operatorTag(operatorId)} ${cursor.since} ${cursor.positions.join('.')}`, 'utf8').toString('base64url');

const NUMBER = /^\d{1,16}$/;

function decodeCursor(operatorId: string, text: string, now: Date, current: number[]): Cursor {
  const [version, tag, since, positions, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split(' ');
  const shards = (positions ?? '').split('.');
  const valid =
    version === 'c1' &&
    tag === operatorTag(operatorId) &&
    !rest.length &&
    NUMBER.test(since ?? '') &&
    shards.length === FEED_SHARDS &&
    shards.every((position, shard) => NUMBER.test(position) && Number(position) <= current[shard]);
  if (!valid) throw CursorExpiredError.because('is not a cursor of these changes');
  if (now.getTime() - Number(since) > CURSOR_LIFETIME_MS) throw CursorExpiredError.because('is older than the 7 days changes are kept');
  return { positions: shards.map(Number), since: Number(since) };
}

const currentPositions = (operatorId: string) =>
  Promise.all(Array.from({ length: FEED_SHARDS }, (_, shard) => getFeedPosition(operatorId, shard)));

/**
 * Up to `limit` entries after the cursor's positions, taken from the heads of
 * the shards' pages in the order they were announced: each shard's entries
 * taken are a prefix of what follows its position, so its new position
 * leaves nothing unread below it.
 */
function takeInOrder(pages: FeedEntryItem[][], limit: number): { taken: FeedEntryItem[]; heads: number[] } {
  const heads = pages.map(() => 0);
  const taken: FeedEntryItem[] = [];
  while (taken.length < limit) {
    let next = -1;
    pages.forEach((page, shard) => {
      const head = page[heads[shard]];
      if (head && (next < 0 || head.AnnouncedAt < pages[next][heads[next]].AnnouncedAt)) next = shard;
    });
    if (next < 0) break;
    taken.push(pages[next][heads[next]]);
    heads[next] += 1;
  }
  return { taken, heads };
}

export async function readChanges(
  caller: Caller,
  query: { since?: string; limit?: string },
  now: Date = config().clock(),
): Promise<ChangesPage> {
  const { operatorId } = caller;
  const current = await currentPositions(operatorId);
  if (query.since === undefined)
    return { Changes: [], Cursor: encodeCursor(operatorId, { positions: current, since: now.getTime() }), HasMore: false };
  const cursor = decodeCursor(operatorId, query.since, now, current);
  const limit = query.limit === undefined ? DEFAULT_FEED_LIMIT : Number(query.limit);
  const pages = await Promise.all(cursor.positions.map((position, shard) => queryFeed(operatorId, shard, position, limit)));
  const { taken, heads } = takeInOrder(
    pages.map((page) => page.entries),
    limit,
  );
  const positions = cursor.positions.map((position, shard) => (heads[shard] ? pages[shard].entries[heads[shard] - 1].Position : position));
  // The earliest announcement not read yet bounds the cursor's age: everything not read was announced at or after it.
  const unread = pages.flatMap((page, shard) => {
    const next = page.entries[heads[shard]] ?? (page.more ? page.entries[heads[shard] - 1] : undefined);
    return next ? [Date.parse(next.AnnouncedAt)] : [];
  });
  const since = Math.min(now.getTime(), ...unread);
  // Hidden products' timeslots are never listed, whatever they were when announced.
  const visible = taken.length ? new Set((await queryVisibleProducts(operatorId)).map((product) => product.ActivityID)) : new Set<string>();
  return {
    Changes: taken.filter((entry) => visible.has(entry.ActivityID)).map((entry) => toldChange(entry, caller.timeZone)),
    Cursor: encodeCursor(operatorId, { positions, since }),
    HasMore: unread.length > 0,
  };
}
