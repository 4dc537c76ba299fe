import { DEFAULT_EVENT_TYPES } from '../../shared/webhooks/model';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { config } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { DELIVERY_WINDOW_MS } from '../../shared/webhooks/schedule';
import { WEBHOOK, webhookWorld, type Partner } from '../support/webhooks';

/**
 * An endpoint that receives none of its events for a day is marked failing:
 * its partner sees it on GET, the operator in the admin CLI's `list-keys`,
 * nothing more is attempted to it (so it holds no delivery lane), until the
 * partner registers it again. Through real HTTP, the table's stream and the
 * sweeps, with a clock the tests move.
 */
const { world, clock, partnerWithEndpoint, book, settle, operatorCancel, receivedAt, sweepAfter } =
  webhookWorld('ota-usage-webhook-health-test');

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

const endpointOf = async (partner: Partner) => (await world.request('GET', WEBHOOK, { key: partner.key })).json.data;
const deliveryOf = async (reference: string) => {
  const booking = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(world.operator.operatorId, reference) }),
  );
  const [deliveryId] = booking.Item!.DeliveryIDs as string[];
  return (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(world.operator.operatorId, deliveryId) }),
    )
  ).Item;
};

/** An event for the partner: a booking of its (days ahead: the clock moves a day and more), cancelled by the operator, its first attempt made. */
async function eventFor(partner: Partner): Promise<{ reference: string; at: string }> {
  const reference = await book(partner.key, { day: 4 });
  const at = clock().toISOString();
  expect((await operatorCancel(reference)).status).toBe(200);
  await settle();
  return { reference, at };
}

/** A sweep every hour for `ms` (a day is 24 sweeps, not 1,440): each retry happens on the first sweep after it is due. */
async function sweepFor(ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 60 * 60_000) await sweepAfter(60 * 60_000);
}

/** A day of hourly sweeps takes 7 s alone; a full run's load has made it 8 times slower. */
const SWEEPING_TEST_MS = 180_000;

afterEach(() => world.receiver.answer(204));

it(
  'is failing since the event it did not receive, marked FAILING after a day of that, sent nothing more, until registered again',
  async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/dead');
    world.receiver.answer(500);
    const first = await eventFor(partner);
    expect(receivedAt('/dead')).toHaveLength(1);
    expect(await endpointOf(partner)).toEqual({
      Url: world.receiver.url('/dead'),
      EventTypes: DEFAULT_EVENT_TYPES,
      CreatedAt: expect.any(String),
      Status: 'ACTIVE',
      FailingSince: first.at,
    });

    await sweepFor(DELIVERY_WINDOW_MS);
    const attempts = receivedAt('/dead').length;
    expect(attempts).toBeGreaterThanOrEqual(6);
    expect(await deliveryOf(first.reference)).toMatchObject({ Status: 'FAILED', LastError: 'answered 500' });
    const marked = await endpointOf(partner);
    expect(marked).toEqual({
      Url: world.receiver.url('/dead'),
      EventTypes: DEFAULT_EVENT_TYPES,
      CreatedAt: expect.any(String),
      Status: 'FAILING',
      FailingSince: first.at,
      MarkedFailingAt: expect.any(String),
    });
    expect(Date.parse(marked.MarkedFailingAt) - Date.parse(first.at)).toBeGreaterThanOrEqual(DELIVERY_WINDOW_MS);

    // The operator sees it among its keys.
    const keyId = (await findActiveKey(partner.key))!.KeyID;
    const listed = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['bin/admin.ts', 'list-keys', '--operator', world.operator.operatorId],
      {
        cwd: ROOT,
        env: { ...process.env, TABLE_NAME: config().tableName },
      },
    );
    expect(listed.stdout).toMatch(
      new RegExp(`${keyId}\\s+ACTIVE .* webhook FAILING ${world.receiver.url('/dead')} receiving nothing since ${first.at}`),
    );

    // The receiver is back, but an endpoint marked failing is not tried: the next event is given up at once.
    world.receiver.answer(204);
    const next = await eventFor(partner);
    await sweepFor(2 * 60 * 60_000);
    expect(receivedAt('/dead')).toHaveLength(attempts);
    expect(await deliveryOf(next.reference)).toMatchObject({
      Status: 'FAILED',
      Attempts: 1,
      LastError: expect.stringContaining('marked failing'),
    });

    // Registered again, it takes deliveries at once.
    const registered = await world.request('PUT', WEBHOOK, { key: partner.key, body: { Url: world.receiver.url('/dead') } });
    expect(registered.json.data).toMatchObject({ Status: 'ACTIVE' });
    expect(registered.json.data).not.toHaveProperty('FailingSince');
    const after = await eventFor(partner);
    expect(receivedAt('/dead')).toHaveLength(attempts + 1);
    expect(await deliveryOf(after.reference)).toMatchObject({ Status: 'DELIVERED' });
  },
  SWEEPING_TEST_MS,
);

it(
  'is not marked while it receives some of its events: a delivery ends a failing spell, and an older event failing later does not reach back',
  async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/flaky');
    world.receiver.answer(500);
    const failed = await eventFor(partner);
    await sweepFor(60 * 60_000);
    expect((await endpointOf(partner)).FailingSince).toBe(failed.at);

    world.receiver.answer(204);
    await eventFor(partner);
    expect(await endpointOf(partner)).toEqual({
      Url: world.receiver.url('/flaky'),
      EventTypes: DEFAULT_EVENT_TYPES,
      CreatedAt: expect.any(String),
      Status: 'ACTIVE',
    });

    // The first event's retries fail again: failing since it recovered, not since that older event; a day later it is still not marked.
    world.receiver.answer(500);
    await sweepFor(DELIVERY_WINDOW_MS - 60 * 60_000);
    const endpoint = await endpointOf(partner);
    expect(endpoint.Status).toBe('ACTIVE');
    expect(Date.parse(endpoint.FailingSince)).toBeGreaterThan(Date.parse(failed.at));
  },
  SWEEPING_TEST_MS,
);
