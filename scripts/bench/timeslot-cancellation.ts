import { randomBytes } from 'node:crypto';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { createOperator } from '../../shared/accounts/operators';
import { getBookings } from '../../shared/booking/repository';
import { cancelTimeslot, finishDueCancellations } from '../../shared/booking/timeslot-cancellation';
import type { TimeslotCancellation } from '../../shared/booking/timeslot-schemas';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { getTimeslot } from '../../shared/catalog/repository';
import { addDays, wallClock } from '../../shared/core/calendar';
import { fixed, printTable } from './harness';
import { keepAliveClient } from './http';

/**
 * Cancelling a timeslot of 10,000 places that holds 2,000 bookings (a fifth
 * of them holds, parties of 1 to 5), made through the service's booking
 * route, on an operator of its own:
 *
 * - through HTTP, the request sent again (with its Idempotency-Key) for as
 *   long as its answer says the cancellation is not complete;
 * - stopped half-way, as a function killed after 1,000 bookings would stop,
 *   then finished by the one-minute sweep, and answered in full by the request.
 *
 * Each ends checked: every booking CANCELLED, the timeslot's places all back,
 * the answer listing every booking once.
 */
export interface CancellationBenchOptions {
  url: string;
  bookings: number;
}

const TIME_ZONE = 'Europe/Lisbon';
const ACTIVITY = 's_ferry01';
const CAPACITY = 10_000;
const LOAD_CONCURRENCY = 8;

const seconds = (ms: number) => `${fixed(ms / 1000, 1)} s`;

/** Makes `count` bookings on the day's 17:30 through the booking route: their references, and how long it took. */
async function load(post: ReturnType<typeof keepAliveClient>['post'], date: string, count: number) {
  const started = Date.now();
  const references: string[] = [];
  let next = 0;
  const book = async () => {
    while (next < count) {
      const index = next++;
      const answer = await post('/api/v2/ota/marketplace/booking', {
        ActivityID: ACTIVITY,
        Date: date,
        Time: '17:30',
        Participants: 1 + (index % 5),
        Customer: { FirstName: 'Bench', LastName: `Passenger ${index}`, Email: `passenger${index}@example.com` },
        ...(index % 5 === 4 ? { Hold: { ExpiresInMinutes: 60 } } : {}),
      });
      references.push((JSON.parse(answer) as { data: { BookingReference: string } }).data.BookingReference);
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, book));
  return { references, ms: Date.now() - started };
}

/** The cancellation as it ended: every booking cancelled, the places back, each listed once. */
async function check(operatorId: string, date: string, answer: TimeslotCancellation, count: number): Promise<string> {
  const slot = await getTimeslot(operatorId, ACTIVITY, date, '17:30');
  const listed = new Set(answer.CancelledBookings);
  const bookings = await getBookings(operatorId, answer.CancelledBookings);
  const cancelled = bookings.filter((booking) => booking.Status === 'CANCELLED' && booking.CancelledBy === 'operator').length;
  const whole =
    listed.size === count &&
    cancelled === count &&
    slot?.Booked === 0 &&
    slot.Vacancies === CAPACITY &&
    answer.Timeslot.Cancellation?.Complete;
  if (!whole)
    throw new Error(
      `The cancellation of ${date} did not end whole: ${listed.size} listed, ${cancelled} cancelled, ${slot?.Booked} places taken`,
    );
  return `${cancelled} cancelled, ${slot?.Booked} places taken`;
}

export async function benchTimeslotCancellation(options: CancellationBenchOptions): Promise<void> {
  const operatorId = `bench-cancel-${randomBytes(4).toString('hex')}`;
  await createOperator({ OperatorID: operatorId, Name: 'Bench Ferries', TimeZone: TIME_ZONE });
  const [requestDay, stoppedDay] = [1, 2].map((offset) => addDays(wallClock(TIME_ZONE).date, offset));
  await importCatalog(operatorId, {
    Products: [
      {
        ProductID: 1,
        ActivityID: ACTIVITY,
        Name: 'Island Ferry',
        DurationMinutes: 45,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
        Timeslots: [requestDay, stoppedDay].map((date) => ({ Date: date, Time: '17:30', Capacity: CAPACITY })),
      },
    ],
  });
  const key = (await createApiKey(operatorId, ['ota', 'availability:write'], 'bench: timeslot cancellation', MAX_KEY_LIMITS)).secret;
  const http = keepAliveClient(options.url, key, LOAD_CONCURRENCY);
  const count = options.bookings;
  console.log(`\nCancelling a timeslot of ${CAPACITY} places holding ${count} bookings (a fifth holds; operator ${operatorId})`);
  const rows: string[][] = [];
  try {
    const loaded = await load(http.post, requestDay, count);
    rows.push(['load: bookings through POST booking', `${count}`, seconds(loaded.ms), '']);

    // Through HTTP: the same request, with its key, until its answer is complete.
    const path = `/api/v2/timeslots/${ACTIVITY}/${requestDay}/17:30/cancel`;
    const headers = { 'Idempotency-Key': `bench-${operatorId}` };
    const started = Date.now();
    let answer: TimeslotCancellation;
    let requests = 0;
    const perRequest: string[] = [];
    do {
      const sentAt = Date.now();
      answer = (
        JSON.parse(await http.postAction(path, { Reason: 'Storm: the ferry stays in port' }, headers)) as { data: TimeslotCancellation }
      ).data;
      requests += 1;
      perRequest.push(`${answer.CancelledBookings.length} after ${seconds(Date.now() - sentAt)}`);
    } while (!answer.Timeslot.Cancellation?.Complete);
    rows.push([
      'cancel through HTTP, sent again until complete',
      `${requests} request(s)`,
      seconds(Date.now() - started),
      await check(operatorId, requestDay, answer, count),
    ]);
    rows.push(['  each request: bookings listed, its time', '', '', perRequest.join('; ')]);

    // Stopped half-way (a function killed after half the bookings), then the sweep a minute later, then the request's answer.
    const { references } = await load(http.post, stoppedDay, count);
    const editor = { operatorId, timeZone: TIME_ZONE, by: 'bench' };
    let groups = 0;
    const stoppedAt = Date.now();
    await cancelTimeslot(editor, { activityId: ACTIVITY, date: stoppedDay, time: '17:30' }, 'Storm: the ferry stays in port', {
      // Asked before each group of 8: it throws once half the bookings' groups have gone, as a function killed there.
      proceed: () => {
        if (groups++ * 8 >= count / 2) throw new Error('stopped');
        return true;
      },
    }).catch((error: Error) => {
      if (error.message !== 'stopped') throw error;
    });
    const stoppedAfter = Date.now() - stoppedAt;
    const done = (await getBookings(operatorId, references)).filter((booking) => booking.Status === 'CANCELLED').length;
    const sweptAt = Date.now();
    const finished = await finishDueCancellations(new Date(Date.now() + 61_000));
    const sweptIn = Date.now() - sweptAt;
    const answeredAt = Date.now();
    const final = (
      JSON.parse(
        await http.postAction(`/api/v2/timeslots/${ACTIVITY}/${stoppedDay}/17:30/cancel`, { Reason: 'Storm: the ferry stays in port' }),
      ) as {
        data: TimeslotCancellation;
      }
    ).data;
    rows.push(['stopped after half the bookings', `${done}`, seconds(stoppedAfter), '']);
    rows.push(['the one-minute sweep finishes it', `${finished} finished`, seconds(sweptIn), '']);
    rows.push([
      'the request answers it whole',
      '1 request',
      seconds(Date.now() - answeredAt),
      await check(operatorId, stoppedDay, final, count),
    ]);
  } finally {
    http.close();
  }
  printTable(['step', 'count', 'time', 'checked'], rows, ['left', 'right', 'right', 'left']);
}
