import { announcementWorld, sequencedState, storedChange, type Change } from '../support/announcements';
import { startLocalTableStream } from '../../lib/local/table-stream';
import { timeslotStatus, vacanciesOf } from '../../shared/catalog/availability';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { getTimeslot } from '../../shared/catalog/repository';
import { announceWrite } from '../../shared/changes/records';
import { getTimeslotAnnouncement } from '../../shared/changes/repository';
import { flushDue } from '../../shared/changes/timeslot-announcer';
import * as keys from '../../shared/db/keys';
import { COALESCING_WINDOW_MS, FLUSH_GRACE_MS } from '../../shared/changes/model';
import { addDays } from '../../shared/core/calendar';
import { documentClient } from '../../shared/db/client';
import { tomorrow } from '../support/catalog';
import { httpClient, startTestHost } from '../support/fixtures';
import type { ReceivedRequest } from '../support/webhook-receiver';

/**
 * availability.changed under faults: the stream handing every record over
 * again, the sender's process gone between two attempts, a flush whose queue
 * message is lost, an endpoint down for an hour. In each, no change is lost
 * and none is sent as another state: a receiver applying events by Sequence
 * ends with what is stored, and every attempt of one webhook-id carries the
 * same body.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const CHANGES = '/api/v2/ota/marketplace/availability/changes';
const WEBHOOK = '/api/v2/ota/webhook';
const date = tomorrow();
const TIMES = ['09:00', '12:00', '16:00'];

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 830,
      ActivityID: 's_faults1',
      Name: 'Cliff Walk',
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 4,
      PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
      Schedules: [
        { From: date, To: addDays(date, 1), Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'], Times: TIMES, Capacity: 40 },
      ],
      Timeslots: [
        { Date: date, Time: '18:00', Capacity: 40 },
        { Date: date, Time: '19:00', Capacity: 40 },
      ],
    },
  ],
};

const { world, settle } = announcementWorld('ota-usage-announce-faults-test', catalog);
const { clock } = world;

/** The clock moved on, the one-minute sweeps run (retries queued, lost flushes made), and everything handed over. */
async function sweepAfter(ms: number): Promise<void> {
  clock.advance(ms);
  await world.host.scheduler.runOnce();
  await settle();
}

async function listener(path: string): Promise<string> {
  const key = await world.operator.keyWith(['ota']);
  const registered = await world.request('PUT', WEBHOOK, {
    key,
    body: { Url: world.receiver.url(path), EventTypes: ['availability.changed'] },
  });
  expect(registered.status).toBe(200);
  return key;
}

const customer = { FirstName: 'Joao', LastName: 'Pires', Email: 'joao@example.com' };
async function book(key: string, day: string, time: string, participants = 1): Promise<string> {
  const response = await world.request('POST', BOOKING, {
    key,
    body: { ActivityID: 's_faults1', Date: day, Time: time, Participants: participants, Customer: customer },
  });
  expect(response.status).toBe(201);
  return response.json.data.BookingReference;
}

const deliveriesAt = (path: string) => world.receiver.received.filter((entry) => entry.path === path);
const changeOf = (entry: ReceivedRequest) => (JSON.parse(entry.body) as { data: Change }).data;

/** Every timeslot the receiver heard of holds what is stored, and every attempt of one webhook-id carried the same body. */
async function expectReceiverInStep(path: string, slots: { day: string; time: string }[]): Promise<void> {
  const told = sequencedState();
  for (const entry of deliveriesAt(path)) told.apply(changeOf(entry));
  for (const { day, time } of slots) {
    const { Status, Vacancies, Capacity } = await storedChange(world.operator.operatorId, 's_faults1', day, time);
    expect({ slot: `${day} ${time}`, ...told.of('s_faults1', day, time) }).toMatchObject({
      slot: `${day} ${time}`,
      Status,
      Vacancies,
      Capacity,
    });
  }
  const bodies = new Map<string, Set<string>>();
  for (const entry of deliveriesAt(path)) {
    const id = entry.headers['webhook-id'] as string;
    bodies.set(id, (bodies.get(id) ?? new Set()).add(entry.body));
  }
  expect([...bodies.values()].every((set) => set.size === 1)).toBe(true);
}

describe('availability.changed under faults', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is told once when the stream hands every record over again: no delivery, feed entry or flush is written twice', async () => {
    clock.advance(60_000);
    const key = await listener('/twice');
    for (const time of TIMES) await book(key, date, time, 2);
    await book(key, date, '09:00');
    await settle();
    clock.advance(COALESCING_WINDOW_MS);
    await settle();
    const before = deliveriesAt('/twice').map((entry) => entry.body);
    expect(before).toHaveLength(TIMES.length + 1);
    const again = startLocalTableStream();
    await again.idle();
    await again.stop();
    await settle();
    expect(deliveriesAt('/twice').map((entry) => entry.body)).toEqual(before);
    expect(world.host.queue.waiting()).toBe(0);
    await expectReceiverInStep(
      '/twice',
      TIMES.map((time) => ({ day: date, time })),
    );
  });

  it('is told once when one record is handed to two announcers at once, as after a crash between its deliveries and its record', async () => {
    clock.advance(60_000);
    const key = await listener('/racing');
    await book(key, date, '16:00');
    const slot = (await getTimeslot(world.operator.operatorId, 's_faults1', date, '16:00'))!;
    const image = { ...slot, ...keys.timeslot(world.operator.operatorId, 's_faults1', date, '16:00') };
    // Both decide from the record as it was, and both write the deliveries before one of them commits.
    await Promise.all([announceWrite(image), announceWrite(image)]);
    await settle();
    expect(deliveriesAt('/racing').map(changeOf)).toEqual([expect.objectContaining({ Time: '16:00', Sequence: slot.Sequence })]);
  });

  it('survives the sender’s process going away between two attempts: the retry carries the same webhook-id and body', async () => {
    clock.advance(60_000);
    const key = await listener('/crash');
    world.receiver.answer(500);
    try {
      await book(key, addDays(date, 1), '09:00', 3);
      await settle();
      expect(deliveriesAt('/crash')).toHaveLength(1);
      // The process ends between the failed attempt and the next; another takes over and reads the stream from its oldest record.
      await world.host.close();
      world.host = await startTestHost();
      world.request = httpClient(world.host);
      await settle();
      expect(deliveriesAt('/crash')).toHaveLength(1);
    } finally {
      world.receiver.answer(204);
    }
    await sweepAfter(61_000);
    const attempts = deliveriesAt('/crash');
    expect(attempts).toHaveLength(2);
    expect(attempts[1].headers['webhook-id']).toBe(attempts[0].headers['webhook-id']);
    expect(attempts[1].body).toBe(attempts[0].body);
    await expectReceiverInStep('/crash', [{ day: addDays(date, 1), time: '09:00' }]);
  });

  it('makes a flush whose queue message was lost from the sweep, and only once', async () => {
    clock.advance(60_000);
    const key = await listener('/lost');
    await book(key, addDays(date, 1), '12:00');
    await world.host.tableStream.idle();
    await world.host.tableStream.idle();
    await book(key, addDays(date, 1), '12:00', 2);
    await world.host.tableStream.idle();
    expect(world.host.queue.waiting()).toBe(1);
    // The message is not handed over (as if lost); past the window and the grace, the sweep makes the flush.
    clock.advance(COALESCING_WINDOW_MS + FLUSH_GRACE_MS);
    await world.host.scheduler.runOnce();
    await world.host.tableStream.idle();
    expect(deliveriesAt('/lost')).toHaveLength(2);
    // The message turning up after all finds the flush made.
    await settle();
    expect(deliveriesAt('/lost')).toHaveLength(2);
    await expectReceiverInStep('/lost', [{ day: addDays(date, 1), time: '12:00' }]);
  });

  it('loses nothing while an endpoint is down for an hour of changes, and sends nothing as another state', async () => {
    clock.advance(60_000);
    const key = await listener('/down');
    await world.receiver.stop();
    const slots = TIMES.map((time) => ({ day: addDays(date, 1), time }));
    const references: string[] = [];
    for (let minute = 0; minute < 60; minute += 5) {
      const { day, time } = slots[(minute / 5) % slots.length];
      references.push(await book(key, day, time, 1 + (minute % 3)));
      if (minute % 15 === 10) await world.request('POST', `${BOOKING}/${references.shift()}/cancel`, { key, body: {} });
      await sweepAfter(5 * 60_000);
    }
    expect(deliveriesAt('/down')).toEqual([]);
    await world.receiver.start();
    // Retries 1, 4, 16 and 64 minutes apart, then hours: every delivery made in the hour is due again within two, and each sweep queues all that are due.
    for (let elapsed = 0; elapsed < 2 * 60; elapsed += 15) await sweepAfter(15 * 60_000);
    expect(deliveriesAt('/down').length).toBeGreaterThan(slots.length);
    await expectReceiverInStep('/down', slots);
    // Twenty sweeps, each every scheduled function and the stream read to its end: slow on a busy machine.
  }, 180_000);

  it('makes a flush while the stream is still handing over the burst it already read: no record it read sends it to read again', async () => {
    const { key, ref, flushAt, cursor } = await waitingFlush('/behind', '18:00');
    // A burst the stream has not handed over yet: its records reach the announcer only while the flush works.
    const behind: Awaited<ReturnType<typeof imageOf>>[] = [];
    for (let booking = 0; booking < 30; booking += 1) {
      await book(key, date, ref.Time);
      behind.push(await imageOf(ref));
    }
    clock.advance(COALESCING_WINDOW_MS);
    beforeEveryTransaction(async () => {
      const record = behind.shift();
      if (record) await announceWrite(record);
    });
    await expect(flushDue({ ...ref, FlushAt: flushAt })).resolves.toBe('announced');
    jest.restoreAllMocks();
    await settle();
    const slot = (await getTimeslot(ref.OperatorID, ref.ActivityID, date, ref.Time))!;
    expect(deliveriesAt('/behind').map((entry) => changeOf(entry).Sequence)).toEqual([slot.Sequence! - 31, slot.Sequence]);
    await expectFlushed('/behind', ref, cursor);
  });

  it('makes a flush read again when a change above the one it read is handed over before it is written', async () => {
    const { key, ref, flushAt, cursor } = await waitingFlush('/ahead', '19:00');
    clock.advance(COALESCING_WINDOW_MS);
    let changed = false;
    beforeEveryTransaction(async () => {
      if (changed) return;
      changed = true;
      await book(key, date, ref.Time);
      await announceWrite(await imageOf(ref));
    });
    await expect(flushDue({ ...ref, FlushAt: flushAt })).resolves.toBe('announced');
    jest.restoreAllMocks();
    await settle();
    await expectFlushed('/ahead', ref, cursor);
  });
});

type SlotRef = { OperatorID: string; ActivityID: string; Date: string; Time: string };

const imageOf = async (ref: SlotRef) => ({
  ...(await getTimeslot(ref.OperatorID, ref.ActivityID, ref.Date, ref.Time))!,
  ...keys.timeslot(ref.OperatorID, ref.ActivityID, ref.Date, ref.Time),
});

/** A listener, the feed's cursor of now, and a timeslot of `date` changed twice: announced at once, then its flush waiting. */
async function waitingFlush(path: string, time: string) {
  clock.advance(60_000);
  const key = await listener(path);
  const cursor = (await world.request('GET', CHANGES, { key })).json.data.Cursor as string;
  const ref: SlotRef = { OperatorID: world.operator.operatorId, ActivityID: 's_faults1', Date: date, Time: time };
  for (let change = 0; change < 2; change += 1) {
    await book(key, date, time);
    await world.host.tableStream.idle();
  }
  const { FlushAt } = (await getTimeslotAnnouncement(ref))!;
  if (!FlushAt) throw new Error(`No flush waits for ${time}`);
  return { key, ref, flushAt: FlushAt, cursor };
}

/** Runs `step` just before each transaction is sent: between a flush's reads and its write. */
function beforeEveryTransaction(step: () => Promise<void>) {
  const client = documentClient();
  const send = client.send.bind(client);
  jest.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
    if (command.constructor.name === 'TransactWriteCommand') await step();
    return send(command as never);
  }) as never);
}

/** The receiver and the changes feed (read from `cursor`) both end with the timeslot as stored. */
async function expectFlushed(path: string, ref: SlotRef, cursor: string) {
  await expectReceiverInStep(path, [{ day: ref.Date, time: ref.Time }]);
  const slot = (await getTimeslot(ref.OperatorID, ref.ActivityID, ref.Date, ref.Time))!;
  const key = await world.operator.keyWith(['ota']);
  const feed = await world.request('GET', `${CHANGES}?since=${cursor}`, { key });
  expect(feed.json.data.Changes).toEqual([
    expect.objectContaining({ Time: ref.Time, Sequence: slot.Sequence, Vacancies: vacanciesOf(slot), Status: timeslotStatus(slot) }),
  ]);
}
