import type { LocalHost } from '../../lib/local/host';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { tomorrow } from './catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from './fixtures';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from './webhook-receiver';

export const BOOKING = '/api/v2/ota/marketplace/booking';
export const WEBHOOK = '/api/v2/ota/webhook';

export interface Partner {
  key: string;
  secret: string;
  path: string;
}

const customer = { FirstName: 'Ines', LastName: 'Lopes', Email: 'ines@example.com' };

export const event = (entry: ReceivedRequest) =>
  JSON.parse(entry.body) as { type: string; timestamp: string; data: { BookingReference: string } & Record<string, unknown> };

/**
 * The world of a webhook test file: a table of its own, as a deployment has
 * (the stream of the table other test files share is theirs to read), a
 * clock the tests move, an operator with one bike ride a day, a local
 * receiver, and the local host reading the table's stream on its own as
 * Lambda does, so a delivery reaches the receiver without the test asking.
 * Each delivery has a stream lane of its own: which random delivery IDs
 * would share a hashed lane (and so wait behind a held request) is chance,
 * and what these tests see must not hang on it.
 */
export function webhookWorld(table: string) {
  const date = tomorrow();
  const catalog: CatalogFile = {
    Products: [
      {
        ProductID: 800,
        ActivityID: 's_bike1',
        Name: 'Coastal Bike Ride',
        DurationMinutes: 180,
        MaxParticipantsPerBooking: 6,
        PricePerParticipant: { Amount: 4000, Currency: 'EUR' },
        Schedules: [
          {
            From: date,
            To: addDays(date, 6),
            Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
            Times: ['09:00'],
            Capacity: 200,
          },
        ],
      },
    ],
  };
  const clock = manualClock(new Date());
  const world = {} as { host: LocalHost; request: HttpClient; operator: TestOperator; receiver: WebhookReceiver };

  beforeAll(async () => {
    await useOwnTable({ tableName: table, clock, webhookTargets: 'loopback-http' });
    world.operator = await createTestOperator(catalog);
    world.host = await startTestHost({ tableStream: { pollMs: 100, lanePerItem: true } });
    world.request = httpClient(world.host);
    world.receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await world.host.close();
    await world.receiver.stop();
  });

  /** A partner key of its own, with an endpoint on the receiver at `path`. */
  async function partnerWithEndpoint(path: string): Promise<Partner> {
    const key = await world.operator.keyWith(['ota']);
    const registered = await world.request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url(path) } });
    expect(registered.status).toBe(200);
    return { key, secret: registered.json.data.Secret, path };
  }

  /** A booking of one place on the ride `day` days after tomorrow (0 unless given). */
  async function book(key: string, options: { hold?: boolean; day?: number } = {}): Promise<string> {
    const response = await world.request('POST', BOOKING, {
      key,
      body: {
        ActivityID: 's_bike1',
        Date: addDays(date, options.day ?? 0),
        Time: '09:00',
        Participants: 1,
        Customer: customer,
        ...(options.hold ? { Hold: { ExpiresInMinutes: 5 } } : {}),
      },
    });
    expect(response.status).toBe(201);
    return response.json.data.BookingReference;
  }

  /** Reads the table's stream to its end and lets every queued attempt finish. */
  const settle = () => world.host.tableStream.idle();

  return {
    world,
    clock,
    partnerWithEndpoint,
    book,
    settle,
    operatorCancel: (reference: string, reason = 'Storm warning') =>
      world.request('POST', `/api/v2/bookings/${reference}/cancel`, { key: world.operator.key, body: { Reason: reason } }),
    receivedAt: (path: string) => world.receiver.received.filter((entry) => entry.path === path),
    /** One sweep after the clock has moved: due holds expire, due retries are queued, and their attempts finish. */
    sweepAfter: async (ms: number) => {
      clock.advance(ms);
      await world.host.scheduler.runOnce();
      await settle();
    },
  };
}
