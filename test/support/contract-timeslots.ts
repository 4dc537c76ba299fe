import { cancelTimeslot } from '../../shared/booking/timeslot-cancellation';
import { addDays } from '../../shared/core/calendar';
import type { HttpClient } from './fixtures';

/**
 * The contract test's cases of the operator's timeslot routes (the
 * Timeslots tag), the changes feed and the erasure of personal data, beside
 * its table of every other route's: how to provoke each status each of them
 * documents.
 */
export type Response = Awaited<ReturnType<HttpClient>>;
export type Send = (options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }) => Promise<Response>;

export const TOO_LARGE = 'x'.repeat(6 * 1024 * 1024 + 1);
export const PLAIN_TEXT = { 'Content-Type': 'text/plain' };

/** What the contract test's world gives these cases. */
export interface ContractWorld {
  /** A sender to the route of this ID, its path parameters filled in, with the operator's every-scope key unless told otherwise. */
  send(routeId: string, path: Record<string, string>, query?: string): Send;
  newBooking(overrides: Record<string, unknown>): Promise<string>;
  operatorId(): string;
  /** Resolves once the table's stream has been read to its end: what was written has been announced. */
  idle(): Promise<unknown>;
  /** The first day of the operator's catalogue: s_walk1 at 09:00 and 14:00 for 7 days. */
  start: string;
}

export function timeslotCases({
  send,
  newBooking,
  operatorId,
  start,
}: ContractWorld): Record<string, Record<number, () => Promise<Response>>> {
  /** The path of s_walk1's 09:00 timeslot `days` after the first day of the catalogue. */
  const timeslot = (days: number) => ({ ActivityID: 's_walk1', Date: addDays(start, days), Time: '09:00' });

  /**
   * What `during` answers while a cancellation of the timeslot is in progress (as when a request stopped before its
   * bookings were cancelled); the cancellation is finished after, so no sweep of another test file meets it.
   */
  async function whileCancelling(date: string, during: () => Promise<Response>): Promise<Response> {
    await newBooking({ Date: date, Participants: 1 });
    const editor = { operatorId: operatorId(), timeZone: 'Europe/Lisbon', by: 'admin' };
    const slot = { activityId: 's_walk1', date, time: '09:00' };
    await cancelTimeslot(editor, slot, 'Storm', { proceed: () => false });
    const response = await during();
    await cancelTimeslot(editor, slot, 'Storm');
    return response;
  }

  return {
    'get-timeslots': {
      200: () => send('get-timeslots', { ActivityID: 's_hidden1' }, `?date=${start}`)({}),
      400: () => send('get-timeslots', { ActivityID: 'walk1' }, `?date=${start}`)({}),
      404: () => send('get-timeslots', { ActivityID: 's_nothing' }, `?date=${start}`)({}),
      422: () => send('get-timeslots', { ActivityID: 's_walk1' }, '?date=tomorrow')({}),
    },
    'change-timeslot': {
      200: () => send('change-timeslot', timeslot(4))({ body: { Capacity: 12, Closed: true, Reason: 'Private group' } }),
      400: () => send('change-timeslot', { ...timeslot(4), Time: '9h' })({ body: { Capacity: 12 } }),
      404: () => send('change-timeslot', { ...timeslot(4), Time: '09:30' })({ body: { Capacity: 12 } }),
      409: async () => {
        await newBooking({ Date: addDays(start, 4), Time: '14:00', Participants: 3 });
        return send('change-timeslot', { ...timeslot(4), Time: '14:00' })({ body: { Capacity: 2 } });
      },
      413: () => send('change-timeslot', timeslot(4))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
      415: () => send('change-timeslot', timeslot(4))({ rawBody: '{"Capacity":12}', headers: PLAIN_TEXT }),
      422: () => send('change-timeslot', timeslot(4))({ body: { Capacity: 10_001 } }),
    },
    'change-timeslot-date': {
      200: () => send('change-timeslot-date', timeslot(5))({ body: { Closed: true, Reason: 'Storm' } }),
      400: () => send('change-timeslot-date', { ...timeslot(5), Date: '2026-13-01' })({ body: { Closed: true } }),
      404: () => send('change-timeslot-date', timeslot(30))({ body: { Closed: true } }),
      409: () => whileCancelling(addDays(start, 6), () => send('change-timeslot-date', timeslot(6))({ body: { Closed: false } })),
      413: () => send('change-timeslot-date', timeslot(5))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
      415: () => send('change-timeslot-date', timeslot(5))({ rawBody: '{"Closed":true}', headers: PLAIN_TEXT }),
      422: () => send('change-timeslot-date', timeslot(5))({ body: { Closed: 'yes' } }),
    },
    'add-timeslots': {
      201: () => send('add-timeslots', timeslot(10))({ body: { Timeslots: [{ Date: addDays(start, 10), Time: '19:00', Capacity: 8 }] } }),
      400: () => send('add-timeslots', { ActivityID: 's-walk1' })({ body: { Timeslots: [] } }),
      404: () =>
        send('add-timeslots', { ActivityID: 's_nothing' })({
          body: { Timeslots: [{ Date: start, Time: '19:00', Capacity: 8 }] },
        }),
      409: () => send('add-timeslots', timeslot(0))({ body: { Timeslots: [{ Date: start, Time: '09:00', Capacity: 8 }] } }),
      413: () => send('add-timeslots', timeslot(0))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
      415: () => send('add-timeslots', timeslot(0))({ rawBody: '{"Timeslots":[]}', headers: PLAIN_TEXT }),
      422: () => send('add-timeslots', timeslot(0))({ body: { Timeslots: [{ Date: start, Time: '19:00', Capacity: 0 }] } }),
    },
    'cancel-timeslot': {
      200: async () => {
        await newBooking({ Date: addDays(start, 2), Time: '14:00', Participants: 1 });
        return send('cancel-timeslot', { ...timeslot(2), Time: '14:00' })({
          body: { Reason: 'Storm' },
          headers: { 'Idempotency-Key': `cancel-${operatorId()}` },
        });
      },
      400: () => send('cancel-timeslot', { ...timeslot(2), Date: '2026-1-01' })({ body: { Reason: 'Storm' } }),
      404: () => send('cancel-timeslot', { ...timeslot(2), Time: '23:59' })({ body: { Reason: 'Storm' } }),
      413: () => send('cancel-timeslot', timeslot(2))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
      415: () => send('cancel-timeslot', timeslot(2))({ rawBody: '{"Reason":"Storm"}', headers: PLAIN_TEXT }),
      422: () => send('cancel-timeslot', timeslot(2))({ body: {} }),
    },
  };
}

/** The changes feed's cases: a change told from the cursor of before it, an unknown cursor, a bad limit. */
export function changesFeedCases({
  send,
  newBooking,
  idle,
  start,
}: ContractWorld): Record<string, Record<number, () => Promise<Response>>> {
  const feed = (query = '') => send('list-availability-changes', {}, query);
  return {
    'list-availability-changes': {
      200: async () => {
        const { Cursor } = (await feed()({})).json.data;
        await newBooking({ Time: '14:00', Participants: 1 });
        await idle();
        // Pages of 10 until no more: the catalogue's own announcements may come first, if the stream had not been read since it was written.
        const changes: unknown[] = [];
        let response: Response | undefined;
        do {
          response = await feed(`?since=${response?.json.data.Cursor ?? Cursor}&limit=10`)({});
          changes.push(...response.json.data.Changes);
        } while (response.json.data.HasMore);
        expect(changes).toEqual(expect.arrayContaining([expect.objectContaining({ ActivityID: 's_walk1', Date: start, Time: '14:00' })]));
        return response;
      },
      410: () => feed('?since=not-a-cursor')({}),
      422: () => feed('?limit=0')({}),
    },
  };
}

/** The erasure route's cases: a booking's personal data erased, and each way a request is refused. */
export function erasureCases({ send, newBooking }: ContractWorld): Record<string, Record<number, () => Promise<Response>>> {
  const erase = send('erase-personal-data', {});
  return {
    'erase-personal-data': {
      200: async () => erase({ body: { BookingReference: await newBooking({}) } }),
      400: () => erase({ body: { BookingReference: 'ABCDEFGHJK', Email: 'ana@example.com' } }),
      404: () => erase({ body: { BookingReference: 'ABCDEFGHJK' } }),
      413: () => erase({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
      415: () => erase({ rawBody: '{"Email":"ana@example.com"}', headers: PLAIN_TEXT }),
      422: () => erase({ body: { Email: 'ana at example.com' } }),
    },
  };
}
