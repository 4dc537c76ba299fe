import { announcementWorld, sequencedState, storedChange, type Change } from '../support/announcements';
import { createTestOperator } from '../support/fixtures';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { COALESCING_WINDOW_MS, CURSOR_LIFETIME_MS } from '../../shared/changes/model';
import { addDays } from '../../shared/core/calendar';
import { expectProblem } from '../support/problems';
import { tomorrow } from '../support/catalog';

/**
 * The changes feed through real HTTP: a partner that only pulls follows every
 * change of availability from a cursor, never skips one however writers and
 * the reader interleave, never sees a hidden product's timeslots, and is told
 * to sync in full (410) for a cursor it cannot be answered from.
 */
const CHANGES = '/api/v2/ota/marketplace/availability/changes';
const BOOKING = '/api/v2/ota/marketplace/booking';
const date = tomorrow();
const TIMES = ['09:00', '11:00', '13:00', '15:00'];
const DAYS = 3;

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 820,
      ActivityID: 's_feed1',
      Name: 'Lagoon Paddle',
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 4,
      PricePerParticipant: { Amount: 2500, Currency: 'EUR' },
      Schedules: [
        {
          From: date,
          To: addDays(date, DAYS - 1),
          Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          Times: TIMES,
          Capacity: 30,
        },
      ],
    },
    {
      ProductID: 821,
      ActivityID: 's_feedhidden',
      Name: 'Staff Paddle',
      Visible: false,
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 4,
      PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
      Timeslots: [{ Date: date, Time: '08:00', Capacity: 5 }],
    },
  ],
};

const { world, settle } = announcementWorld('ota-usage-feed-test', catalog);
const { clock } = world;

/** Every waiting flush made: the clock past the window, then settled. */
async function flushAll(): Promise<void> {
  await settle();
  clock.advance(COALESCING_WINDOW_MS);
  await settle();
}

const nowCursor = async (key = world.operator.key) => (await world.request('GET', CHANGES, { key })).json.data.Cursor as string;

/** A reader that applies each change only when its Sequence is above the last it applied. */
function reader(key = world.operator.key) {
  const { state, apply } = sequencedState();
  let cursor = '';
  const read = async (limit = 3) => {
    for (;;) {
      const page = await world.request('GET', `${CHANGES}?since=${cursor}&limit=${limit}`, { key });
      expect(page.status).toBe(200);
      for (const change of page.json.data.Changes as Change[]) apply(change);
      cursor = page.json.data.Cursor;
      if (!page.json.data.HasMore) return;
    }
  };
  return {
    state,
    /** Where a partner starts: the cursor of now, then everything read in full (a change between the two is applied by Sequence). */
    start: async (slots: { day: string; time: string }[]) => {
      cursor = await nowCursor(key);
      for (const { day, time } of slots) {
        apply({ ActivityID: 's_feed1', Date: day, Time: time, StartsAt: '', ChangedAt: '', ...(await stored('s_feed1', day, time)) });
      }
    },
    read,
  };
}

const stored = (activityId: string, day: string, time: string) => storedChange(world.operator.operatorId, activityId, day, time);

const customer = { FirstName: 'Eva', LastName: 'Reis', Email: 'eva@example.com' };
const book = (day: string, time: string, participants: number) =>
  world.request('POST', BOOKING, {
    key: world.operator.key,
    body: { ActivityID: 's_feed1', Date: day, Time: time, Participants: participants, Customer: customer },
  });

describe('the changes feed', () => {
  it('answers no changes and the cursor of now without since, then the timeslots changed since it, each once, as they are now', async () => {
    clock.advance(60_000);
    const empty = await world.request('GET', CHANGES, { key: world.operator.key });
    expect(empty.status).toBe(200);
    expect(empty.json.data).toEqual({ Changes: [], Cursor: expect.any(String), HasMore: false });
    const since = empty.json.data.Cursor;
    await book(date, '09:00', 2);
    await flushAll();
    await book(date, '09:00', 1);
    await book(date, '11:00', 3);
    await flushAll();
    const page = await world.request('GET', `${CHANGES}?since=${since}`, { key: world.operator.key });
    const changes = page.json.data.Changes as Change[];
    expect(changes.map((change) => change.Time).sort()).toEqual(['09:00', '11:00']);
    for (const change of changes) expect(change).toMatchObject(await stored('s_feed1', date, change.Time));
    expect(changes.find((change) => change.Time === '09:00')).toMatchObject({ Vacancies: 27 });
    const after = await world.request('GET', `${CHANGES}?since=${page.json.data.Cursor}`, { key: world.operator.key });
    expect(after.json.data).toMatchObject({ Changes: [], HasMore: false });
  });

  it('never lists a hidden product’s timeslot', async () => {
    clock.advance(60_000);
    const since = await nowCursor();
    // The catalogue imported again: every timeslot written anew, the hidden one with another capacity.
    const changed: CatalogFile = {
      Products: [catalog.Products[0], { ...catalog.Products[1], Timeslots: [{ Date: date, Time: '08:00', Capacity: 7 }] }],
    };
    const { importCatalog } = await import('../../shared/catalog/import-catalog');
    await importCatalog(world.operator.operatorId, changed);
    await flushAll();
    const page = await world.request('GET', `${CHANGES}?since=${since}&limit=1000`, { key: world.operator.key });
    expect((page.json.data.Changes as Change[]).filter((change) => change.ActivityID === 's_feedhidden')).toEqual([]);
  });

  it.each([
    ['a text that is no cursor', () => 'not-a-cursor'],
    ['a cursor of another operator', async () => nowCursor((await createTestOperator(catalog)).key)],
  ])('is 410 for %s', async (_, cursorOf) => {
    const response = await world.request('GET', `${CHANGES}?since=${await cursorOf()}`, { key: world.operator.key });
    expectProblem(response, 410, { detail: /^Query parameter 'since' is not a cursor of these changes; read availability in full/ });
    expect(response.json.type).toMatch(/\/cursor-expired$/);
  });

  it('is 410 for a cursor older than the 7 days changes are kept, and answers one younger', async () => {
    const cursor = await nowCursor();
    clock.advance(CURSOR_LIFETIME_MS - 1000);
    expect((await world.request('GET', `${CHANGES}?since=${cursor}`, { key: world.operator.key })).status).toBe(200);
    clock.advance(2000);
    const response = await world.request('GET', `${CHANGES}?since=${cursor}`, { key: world.operator.key });
    expectProblem(response, 410, {
      detail: /^Query parameter 'since' is older than the 7 days changes are kept; read availability in full/,
    });
  });

  it('never skips a change: a reader polling while many writers change every timeslot at once ends with what is stored', async () => {
    clock.advance(60_000);
    const slots = Array.from({ length: DAYS }, (_, day) => TIMES.map((time) => ({ day: addDays(date, day), time }))).flat();
    const follower = reader();
    await follower.start(slots);
    // The stream, the queue and the clock run by themselves while the writers and the reader work.
    let running = true;
    const background = (async () => {
      while (running) {
        await world.host.tableStream.idle();
        clock.advance(1000);
        await world.host.queue.idle();
      }
    })();
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let n = 0; n < 12; n += 1) {
        const slot = slots[(writer * 5 + n * 7) % slots.length];
        const response = await book(slot.day, slot.time, 1 + ((writer + n) % 3));
        if (response.status === 201 && n % 4 === 3) {
          await world.request('POST', `${BOOKING}/${response.json.data.BookingReference}/cancel`, { key: world.operator.key, body: {} });
        }
      }
    });
    const polling = (async () => {
      while (running) await follower.read(4);
    })();
    await Promise.all(writers);
    running = false;
    await Promise.all([background, polling]);
    await flushAll();
    await follower.read(4);
    for (const { day, time } of slots) {
      expect({ slot: `${day} ${time}`, ...follower.state.get(`s_feed1 ${day} ${time}`) }).toMatchObject({
        slot: `${day} ${time}`,
        ...(await stored('s_feed1', day, time)),
      });
    }
  });
});
