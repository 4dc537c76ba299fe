import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { localClient } from '../../lib/local/dynamodb-local';
import { ensureTable } from '../../lib/local/table';
import { COALESCING_WINDOW_MS } from '../../shared/changes/model';
import { getTimeslotAnnouncement } from '../../shared/changes/repository';
import { config, configure } from '../../shared/core/config';
import { availabilityIdOf } from '../../shared/octo/render';
import { fixed, percentile, printTable } from './harness';
import { streamHopProbe, type StreamHopProbe } from './stream-hop';
import { startHostProcess } from './host-process';
import {
  LIVE_ACTIVITY,
  LIVE_OPERATOR,
  liveClient,
  seedLiveOperator,
  sequencedState,
  slotName,
  startReceiver,
  storedChange,
  type LiveClient,
  type Receiver,
  type Slot,
} from './propagation-world';

/**
 * How fast and how faithfully partners hear of availability, on a local host
 * that works as `npm start` does (the stream read four times a second, the
 * queue and the Scheduler played) in a process of its own:
 *
 * - propagation: from the answer of a booking to the arrival of its
 *   `availability.changed` at a receiver on this machine, for the first change
 *   of a quiet timeslot, and for each change inside a burst on one timeslot
 *   (those wait for the window's trailing flush);
 * - the storm: concurrent bookings, holds and cancellations through both APIs
 *   on 100-place timeslots; the events each timeslot was told in against the
 *   goal (storm seconds ÷ window + 2), and whether a receiver applying the
 *   events by Sequence, and a reader of the changes feed polling every second,
 *   end with exactly what is stored, in three runs of three timeslots.
 */
export interface PropagationOptions {
  dynamoEndpoint: string;
  quick: boolean;
}

/** A table of its own: the live host reads its stream from the oldest record, and the other scenarios' writes are not its to announce. */
const LIVE_TABLE = 'ota-usage-bench-live';

const customer = { FirstName: 'Bench', LastName: 'Storm', Email: 'storm@example.com' };
const booking = (slot: Slot, participants: number, hold = false) => ({
  ActivityID: LIVE_ACTIVITY,
  Date: slot.date,
  Time: slot.time,
  Participants: participants,
  Customer: customer,
  ...(hold ? { Hold: { ExpiresInMinutes: 30 } } : {}),
});

async function book(call: LiveClient, slot: Slot, participants = 1) {
  const answer = await call('POST', '/api/v2/ota/marketplace/booking', booking(slot, participants));
  if (answer.status !== 201) throw new Error(`A booking answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer;
}

const latencyRow = (name: string, latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return [name, sorted.length, fixed(percentile(sorted, 50), 0), fixed(percentile(sorted, 99), 0), fixed(sorted.at(-1) ?? NaN, 0)];
};

/** Until the announcer has told every timeslot as it is stored, none waiting for a flush; checked every second. */
async function untilAnnounced(slots: Slot[], timeoutMs = 600_000): Promise<void> {
  const startedAt = performance.now();
  let waiting = slots;
  while (waiting.length) {
    if (performance.now() - startedAt > timeoutMs)
      throw new Error(`${waiting.length} timeslots not announced within ${timeoutMs / 1000} s`);
    await sleep(1000);
    const told = await Promise.all(
      waiting.map(async (slot) => {
        const ref = { OperatorID: LIVE_OPERATOR.OperatorID, ActivityID: LIVE_ACTIVITY, Date: slot.date, Time: slot.time };
        const [stored, record] = await Promise.all([storedChange(slot), getTimeslotAnnouncement(ref)]);
        return record !== undefined && !record.FlushAt && (record.Sequence ?? 0) >= stored.Sequence;
      }),
    );
    waiting = waiting.filter((_, index) => !told[index]);
  }
}

/** Each booking of a quiet timeslot, one at a time: from its answer to its event's arrival; after each, one stream hop of the baseline. */
async function quietChanges(call: LiveClient, receiver: Receiver, slots: Slot[], hop: StreamHopProbe) {
  const latencies: number[] = [];
  const hops: number[] = [];
  for (const slot of slots) {
    const from = receiver.arrivals.length;
    const { answeredAt } = await book(call, slot);
    const { Sequence } = await storedChange(slot);
    const arrival = await receiver.next(from, (change) => slotName(change) === slotName(slot) && change.Sequence >= Sequence, 30_000);
    latencies.push(arrival.at - answeredAt);
    hops.push(await hop.measure());
  }
  return { latencies, hops };
}

/** Bookings on one timeslot every `gapMs`: from each answer to the arrival of an event at or past its Sequence. */
async function burstChanges(call: LiveClient, receiver: Receiver, slot: Slot, writes: number, gapMs: number): Promise<number[]> {
  const waits: Promise<number>[] = [];
  for (let write = 0; write < writes; write += 1) {
    const from = receiver.arrivals.length;
    const { answeredAt } = await book(call, slot);
    // One writer on this timeslot: what is stored now is this write's Sequence.
    const { Sequence } = await storedChange(slot);
    const arrival = receiver.next(from, (change) => slotName(change) === slotName(slot) && change.Sequence >= Sequence, 30_000);
    waits.push(arrival.then(({ at }) => at - answeredAt));
    await sleep(gapMs);
  }
  // The first write of a quiet timeslot is not inside the burst.
  return (await Promise.all(waits)).slice(1);
}

interface StormOutcome {
  slot: Slot;
  operations: number;
  accepted: number;
  refused: number;
  seconds: number;
  events: number;
  goal: number;
  webhookInStep: boolean;
  feedInStep: boolean;
}

/** One operation of a storm on `slot`, by its number: a booking, a hold, an OCTo reservation, or a cancellation of an earlier one. */
function stormOperation(call: LiveClient, slot: Slot, made: { marketplace: string[]; octo: string[] }) {
  const availabilityId = availabilityIdOf({ Date: slot.date, Time: slot.time }, LIVE_OPERATOR.TimeZone);
  return async (n: number) => {
    const kind = n % 5;
    if (kind === 4 && made.marketplace.length) {
      return call('POST', `/api/v2/ota/marketplace/booking/${made.marketplace.shift()}/cancel`, {});
    }
    if (kind === 3 && made.octo.length) return call('POST', `/octo/bookings/${made.octo.shift()}/cancel`, { reason: 'Storm' });
    if (kind === 2) {
      const answer = await call('POST', '/octo/bookings', {
        productId: LIVE_ACTIVITY,
        optionId: 'DEFAULT',
        availabilityId,
        unitItems: Array.from({ length: 1 + (n % 2) }, () => ({ unitId: 'adult' })),
      });
      if (answer.status === 200) made.octo.push(answer.json.uuid);
      return answer;
    }
    const answer = await call('POST', '/api/v2/ota/marketplace/booking', booking(slot, 1 + (n % 3), kind === 1));
    if (answer.status === 201) made.marketplace.push(answer.json.data.BookingReference);
    return answer;
  };
}

async function storm(call: LiveClient, receiver: Receiver, slots: Slot[], operations: number): Promise<StormOutcome[]> {
  const feed = sequencedState();
  let cursor = (await call('GET', '/api/v2/ota/marketplace/availability/changes')).json.data.Cursor as string;
  const readFeed = async () => {
    for (let more = true; more;) {
      const page = await call('GET', `/api/v2/ota/marketplace/availability/changes?since=${cursor}&limit=1000`);
      for (const change of page.json.data.Changes) feed.apply(change);
      cursor = page.json.data.Cursor;
      more = page.json.data.HasMore;
    }
  };
  let storming = true;
  const polling = (async () => {
    while (storming) await Promise.all([readFeed(), sleep(1000)]);
  })();
  const startedAt = performance.now();
  const from = receiver.arrivals.length;
  const perSlot = await Promise.all(
    slots.map(async (slot) => {
      const operate = stormOperation(call, slot, { marketplace: [], octo: [] });
      let next = 0;
      let [accepted, refused] = [0, 0];
      const worker = async () => {
        for (let n = next++; n < operations; n = next++) {
          const { status, json } = await operate(n);
          if (status === 200 || status === 201) accepted += 1;
          else if (status === 409 || (status === 400 && json?.error === 'UNPROCESSABLE_ENTITY')) refused += 1;
          else throw new Error(`A storm operation answered ${status}: ${JSON.stringify(json)}`);
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      return { accepted, refused };
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  // Until the last trailing flush has been told: a window, then quiet.
  await sleep(COALESCING_WINDOW_MS + 1000);
  await receiver.quiet(3000);
  storming = false;
  await polling;
  await readFeed();
  const told = sequencedState();
  for (const arrival of receiver.arrivals) told.apply(arrival.change);
  return Promise.all(
    slots.map(async (slot, index) => {
      const stored = await storedChange(slot);
      const same = (change?: { Status: string; Vacancies: number; Capacity: number }) =>
        change?.Status === stored.Status && change.Vacancies === stored.Vacancies && change.Capacity === stored.Capacity;
      return {
        slot,
        operations,
        ...perSlot[index],
        seconds,
        events: receiver.arrivals.slice(from).filter((arrival) => slotName(arrival.change) === slotName(slot)).length,
        goal: seconds / (COALESCING_WINDOW_MS / 1000) + 2,
        webhookInStep: same(told.state.get(slotName(slot))),
        feedInStep: same(feed.state.get(slotName(slot))),
      };
    }),
  );
}

export async function benchPropagation(options: PropagationOptions): Promise<void> {
  const benchConfig = config();
  configure({ ...benchConfig, tableName: LIVE_TABLE });
  const admin = localClient(options.dynamoEndpoint);
  await ensureTable(admin, LIVE_TABLE);
  admin.destroy();
  const { key, slots } = await seedLiveOperator();
  const host = await startHostProcess(LIVE_TABLE, options.dynamoEndpoint, { live: true });
  const receiver = await startReceiver();
  try {
    const call = liveClient(host.url, key);
    // The catalogue's own announcements told, and every timeslot quiet again.
    await untilAnnounced(slots);
    await sleep(COALESCING_WINDOW_MS + 1000);
    // Registered once the catalogue is told: a partner that joins later is not sent it, so the first change it hears is the bench's.
    const registered = await call('PUT', '/api/v2/ota/webhook', { Url: receiver.url, EventTypes: ['availability.changed'] });
    if (registered.status !== 200) throw new Error(`The webhook endpoint answered ${registered.status}`);

    const [quietCount, bursts, burstWrites, stormOperations] = options.quick ? [20, 1, 20, 100] : [100, 3, 40, 500];
    const unused = [...slots];
    const take = (count: number) => unused.splice(0, count);

    console.log(`\nPropagation: from a booking's answer to its availability.changed at a receiver on this machine (live local host)`);
    const hop = await streamHopProbe(options.dynamoEndpoint);
    const { latencies: quiet, hops } = await quietChanges(call, receiver, take(quietCount), hop).finally(() => hop.close());
    const burst = (await Promise.all(take(bursts).map((slot) => burstChanges(call, receiver, slot, burstWrites, 150)))).flat();
    printTable(
      ['change', 'events', 'p50 ms', 'p99 ms', 'max ms'],
      [
        latencyRow('first change of a quiet timeslot', quiet),
        latencyRow(`inside a burst (a booking every 150 ms)`, burst),
        latencyRow('baseline: one hop of the stream', hops),
      ],
      ['left', 'right', 'right', 'right', 'right'],
    );
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      );
    console.log(
      `first change / one stream hop, p50: ${fixed(median(quiet) / median(hops), 2)}x (an event takes two hops and the work between)`,
    );
    console.log(
      `goal: p99 of a first change ≤ 1000 ms: ${
        percentile(
          [...quiet].sort((a, b) => a - b),
          99,
        ) <= 1000
          ? 'yes'
          : 'no'
      }`,
    );

    console.log(
      `\nStorm: ${stormOperations} concurrent bookings, holds and OCTo reservations and cancellations on each of three ${100}-place timeslots, three runs`,
    );
    const rows: (string | number)[][] = [];
    for (let run = 1; run <= 3; run += 1) {
      for (const outcome of await storm(call, receiver, take(3), stormOperations)) {
        rows.push([
          run,
          slotName(outcome.slot),
          `${outcome.accepted}/${outcome.refused}`,
          fixed(outcome.seconds, 1),
          outcome.events,
          fixed(outcome.goal, 1),
          outcome.events <= outcome.goal ? 'yes' : 'no',
          outcome.webhookInStep ? 'yes' : 'NO',
          outcome.feedInStep ? 'yes' : 'NO',
        ]);
      }
    }
    printTable(['run', 'timeslot', 'ok/refused', 'storm s', 'events', 'goal ≤', 'within', 'webhook = stored', 'feed = stored'], rows, [
      'right',
      'left',
      'right',
      'right',
      'right',
      'right',
      'left',
      'left',
      'left',
    ]);
  } finally {
    await receiver.close();
    await host.stop();
    configure(benchConfig);
  }
}
