import { bookingKeys } from '../db/keys';
import type { Caller } from '../core/caller';
import { ValidationError } from '../core/errors';
import { addDays, zonedInstant } from '../core/calendar';
import { checkDayRange } from '../core/day-range';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, REFERENCE_ALPHABET, REFERENCE_LENGTH } from './constants';
import { toBooking, type BookingItem } from './model';
import type { BookingList, BookingsQuery } from './schemas';
import { queryBookingsCreatedBetween } from './repository';

/**
 * The operator's bookings of every channel, newest first. `from` and `to`
 * are days of the booking's creation in the operator's time zone, both
 * included. Pages hold `limit` bookings (default 50, at most 200) and carry
 * an opaque cursor to the next page; a page with a channel filter may be
 * shorter, and the list ends only when NextCursor is null.
 */
/** Index pages read per request at most, so that a rare channel cannot make one request read the whole history. */
const MAX_READS_PER_PAGE = 5;

const SORT_KEY_PATTERN = new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`);

/** The cursor is the list sort key of the last booking returned, base64url-encoded. */
export const encodeCursor = (sortKey: string): string => Buffer.from(sortKey, 'utf8').toString('base64url');

/** Accepts only a cursor that this list could have returned for the same operator and range. */
export function decodeCursor(cursor: string, bounds: { from: string; to: string }): string {
  const sortKey = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!SORT_KEY_PATTERN.test(sortKey) || sortKey < bounds.from || sortKey > bounds.to) {
    throw new ValidationError('is not a cursor of this list; start again without it', { field: 'cursor' });
  }
  return sortKey;
}

/** The instants that open the day `from` and close the day `to` in `timeZone`, as ISO 8601 UTC. */
export function creationRange(from: string, to: string, timeZone: string): { fromIso: string; toIso: string } {
  checkDayRange({ name: 'from', date: from }, { name: 'to', date: to });
  return {
    fromIso: new Date(zonedInstant(from, '00:00', timeZone)).toISOString(),
    toIso: new Date(zonedInstant(addDays(to, 1), '00:00', timeZone) - 1).toISOString(),
  };
}

const sortKeyOf = (item: BookingItem) => bookingKeys.bookingListEntry(item.OperatorID, item.CreatedAt, item.BookingReference).GSI1SK;

/** The list by creation day (the query's `from` and `to` are present: see queryKind in manifest.ts). */
export async function listOperatorBookings(caller: Caller, query: BookingsQuery & { from: string; to: string }): Promise<BookingList> {
  const range = creationRange(query.from, query.to, caller.timeZone);
  const { SKFrom, SKTo } = bookingKeys.bookingListRange(caller.operatorId, range.fromIso, range.toIso);
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
  if (limit > MAX_PAGE_SIZE) throw new ValidationError(`must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
  let after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, { from: SKFrom, to: SKTo });
  const bookings: BookingItem[] = [];
  for (let read = 0; read < MAX_READS_PER_PAGE; read += 1) {
    const page = await queryBookingsCreatedBetween(caller.operatorId, range, { limit, channel: query.channel, afterSortKey: after });
    const room = limit - bookings.length;
    bookings.push(...page.items.slice(0, room));
    if (page.items.length > room) {
      // The page was over-filled: continue right after the last booking returned.
      return { Bookings: bookings.map(toBooking), NextCursor: encodeCursor(sortKeyOf(bookings[bookings.length - 1])) };
    }
    after = page.lastSortKey;
    if (!after || bookings.length === limit) break;
  }
  return { Bookings: bookings.map(toBooking), NextCursor: after ? encodeCursor(after) : null };
}
