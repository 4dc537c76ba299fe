import * as bookingKeys from '../db/booking-keys';
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

/** What a page belongs to: its range of creation days and its channel filter. */
export interface ListPages {
  from: string;
  to: string;
  channel?: string;
}

/**
 * The cursor is the list sort key of the last booking returned, with the
 * range and channel it was returned for (base64url of the four, space-separated),
 * so that a cursor is taken only by the query that issued it.
 */
export const encodeCursor = (sortKey: string, pages: ListPages): string =>
  Buffer.from([pages.from, pages.to, pages.channel ?? '*', sortKey].join(' '), 'utf8').toString('base64url');

const notACursor = () => new ValidationError('is not a cursor of this list; start again without it', { field: 'cursor' });

/** Accepts only a cursor that this list returned for the same range and channel (whose sort key lies within `bounds`). */
export function decodeCursor(cursor: string, pages: ListPages, bounds: { from: string; to: string }): string {
  const [from, to, channel, sortKey, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(' ');
  if (sortKey === undefined || rest.length || !SORT_KEY_PATTERN.test(sortKey)) throw notACursor();
  if (from !== pages.from || to !== pages.to || channel !== (pages.channel ?? '*')) {
    throw new ValidationError('was issued for another range or channel; start again without it', { field: 'cursor' });
  }
  if (sortKey < bounds.from || sortKey > bounds.to) throw notACursor();
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
  let after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query, { from: SKFrom, to: SKTo });
  const bookings: BookingItem[] = [];
  for (let read = 0; read < MAX_READS_PER_PAGE; read += 1) {
    const page = await queryBookingsCreatedBetween(caller.operatorId, range, { limit, channel: query.channel, afterSortKey: after });
    const room = limit - bookings.length;
    bookings.push(...page.items.slice(0, room));
    if (page.items.length > room) {
      // The page was over-filled: continue right after the last booking returned.
      return { Bookings: bookings.map(toBooking), NextCursor: encodeCursor(sortKeyOf(bookings[bookings.length - 1]), query) };
    }
    after = page.lastSortKey;
    if (!after || bookings.length === limit) break;
  }
  return { Bookings: bookings.map(toBooking), NextCursor: after ? encodeCursor(after, query) : null };
}
