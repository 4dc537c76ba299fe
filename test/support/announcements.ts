import type { LocalHost } from '../../lib/local/host';
import { timeslotStatus, vacanciesOf } from '../../shared/catalog/availability';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { getTimeslot } from '../../shared/catalog/repository';
import { manualClock } from '../../shared/core/clock';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from './fixtures';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * The world of the tests of what partners hear of changes: a table of the
 * test file's own, a clock the test moves, an operator with `catalog`, a
 * local host whose stream and queue the test hands over itself (settle), and
 * a webhook receiver on this machine.
 */
export interface AnnouncementWorld {
  clock: ReturnType<typeof manualClock>;
  host: LocalHost;
  request: HttpClient;
  operator: TestOperator;
  receiver: WebhookReceiver;
}

export function announcementWorld(tableName: string, catalog: CatalogFile) {
  const world = { clock: manualClock(new Date()) } as AnnouncementWorld;

  /** The stream read to its end and every flush due by the clock made, until nothing is left. */
  async function settle(): Promise<void> {
    for (let round = 0; round < 3; round += 1) {
      await world.host.tableStream.idle();
      await world.host.queue.idle();
    }
  }

  beforeAll(async () => {
    await useOwnTable({ tableName, clock: world.clock, webhookTargets: 'loopback-http' });
    world.operator = await createTestOperator(catalog);
    world.host = await startTestHost();
    world.request = httpClient(world.host);
    world.receiver = await startWebhookReceiver();
    // The catalogue's own writes are announced before any partner listens.
    await settle();
  });

  afterAll(async () => {
    await world.host.close();
    await world.receiver.stop();
  });

  return { world, settle };
}

/** A timeslot as partners hear of it: an `availability.changed` event's data, or a changes feed entry. */
export interface Change {
  ActivityID: string;
  Date: string;
  Time: string;
  /** The start instant, with the operator's offset then. */
  StartsAt: string;
  Status: string;
  Vacancies: number;
  Capacity: number;
  ChangedAt: string;
  Sequence: number;
}

/** What a receiver (or a feed reader) ends with that applies each change only when its Sequence is above the last it applied. */
export function sequencedState() {
  const state = new Map<string, Change>();
  return {
    state,
    apply(change: Change) {
      const name = `${change.ActivityID} ${change.Date} ${change.Time}`;
      if ((state.get(name)?.Sequence ?? 0) < change.Sequence) state.set(name, change);
    },
    of: (activityId: string, day: string, time: string) => state.get(`${activityId} ${day} ${time}`),
  };
}

/** The timeslot as partners are told of it, read from the table. */
export async function storedChange(operatorId: string, activityId: string, day: string, time: string) {
  const slot = (await getTimeslot(operatorId, activityId, day, time))!;
  return { Status: timeslotStatus(slot), Vacancies: vacanciesOf(slot), Capacity: slot.Capacity, Sequence: slot.Sequence as number };
}
