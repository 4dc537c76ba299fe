import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { createOperator } from '../../shared/accounts/operators';
import { timeslotStatus, vacanciesOf } from '../../shared/catalog/availability';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { getTimeslot } from '../../shared/catalog/repository';
import { addDays, wallClock } from '../../shared/core/calendar';

/**
 * What the propagation bench stands on: an operator of its own with one
 * product of 100-place timeslots, a partner key, a webhook receiver on this
 * machine that notes when each `availability.changed` arrives, and a client
 * of the live host that answers every status (a storm meets refusals).
 */
export const LIVE_OPERATOR = { OperatorID: 'bench-live', Name: 'Bench Live Harbour', TimeZone: 'Europe/Lisbon' };
export const LIVE_ACTIVITY = 's_benchlive';
export const LIVE_CAPACITY = 100;
const TIMES = Array.from({ length: 10 }, (_, hour) => `${String(8 + hour).padStart(2, '0')}:00`);
const DAYS = 30;

export interface Slot {
  date: string;
  time: string;
}

export interface Change {
  Date: string;
  Time: string;
  Status: string;
  Vacancies: number;
  Capacity: number;
  Sequence: number;
}

export const slotName = (slot: { date?: string; time?: string; Date?: string; Time?: string }) =>
  `${slot.date ?? slot.Date} ${slot.time ?? slot.Time}`;

export async function seedLiveOperator(): Promise<{ key: string; slots: Slot[] }> {
  const firstDate = addDays(wallClock(LIVE_OPERATOR.TimeZone).date, 1);
  await createOperator(LIVE_OPERATOR);
  await importCatalog(LIVE_OPERATOR.OperatorID, {
    Products: [
      {
        ProductID: 9500,
        ActivityID: LIVE_ACTIVITY,
        Name: 'Harbour Ferry',
        DurationMinutes: 45,
        MaxParticipantsPerBooking: 4,
        PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
        Schedules: [
          {
            From: firstDate,
            To: addDays(firstDate, DAYS - 1),
            Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
            Times: TIMES,
            Capacity: LIVE_CAPACITY,
          },
        ],
      },
    ],
  });
  const { secret } = await createApiKey(LIVE_OPERATOR.OperatorID, ['ota'], 'bench live partner', MAX_KEY_LIMITS);
  const slots = Array.from({ length: DAYS }, (_, day) => TIMES.map((time) => ({ date: addDays(firstDate, day), time }))).flat();
  return { key: secret, slots };
}

/** The timeslot as partners are told of it, read from the table. */
export async function storedChange(slot: Slot): Promise<Omit<Change, 'Date' | 'Time'>> {
  const item = await getTimeslot(LIVE_OPERATOR.OperatorID, LIVE_ACTIVITY, slot.date, slot.time);
  if (!item) throw new Error(`No timeslot ${slotName(slot)}`);
  return { Status: timeslotStatus(item), Vacancies: vacanciesOf(item), Capacity: item.Capacity, Sequence: item.Sequence ?? 0 };
}

export interface Arrival {
  at: number;
  change: Change;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** Resolves with the first arrival at or after index `from` that `matches`, or rejects after `timeoutMs`. */
  next(from: number, matches: (change: Change) => boolean, timeoutMs: number): Promise<Arrival>;
  /** Resolves once no event has arrived for `quietMs`. */
  quiet(quietMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string; data: Change };
      if (event.type === 'availability.changed') arrivals.push({ at, change: event.data });
      response.writeHead(204).end();
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const waitUntil = (done: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`No awaited event within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url: `http://127.0.0.1:${port}/availability`,
    arrivals,
    async next(from, matches, timeoutMs) {
      const found = () => arrivals.slice(from).find((arrival) => matches(arrival.change));
      await waitUntil(() => found() !== undefined, timeoutMs);
      return found() as Arrival;
    },
    async quiet(quietMs) {
      for (;;) {
        const last = arrivals.at(-1)?.at ?? 0;
        const idle = performance.now() - last;
        if (idle >= quietMs) return;
        await new Promise((resolve) => setTimeout(resolve, quietMs - idle));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A call to the live host that answers every status, with the parsed body. */
export function liveClient(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined, answeredAt: performance.now() };
  };
}

export type LiveClient = ReturnType<typeof liveClient>;

/** A reader of events or of the changes feed: applies a change only when its Sequence is above the last it applied. */
export function sequencedState() {
  const state = new Map<string, Change>();
  return {
    state,
    apply(change: Change) {
      const name = slotName(change);
      if ((state.get(name)?.Sequence ?? 0) < change.Sequence) state.set(name, change);
    },
  };
}
