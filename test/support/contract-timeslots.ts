import { cancelTimeslot } from '../../shared/booking/timeslot-cancellation';
import { addDays } from '../../shared/core/calendar';
import type { HttpClient } from './fixtures';

/**
 * The contract test's cases of the operator's timeslot routes (the
 * Timeslots tag), beside its table of every other route's: how to provoke
 * each status each of them documents.
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
