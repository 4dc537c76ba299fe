import type { EventBridgeEvent } from 'aws-lambda';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import { recordPlatformEventEntry } from '../../shared/api/event-rules';
import { authorizerEntry } from '../../shared/api/routes';
import { createPartnerBooking, getPartnerBooking } from '../../shared/booking/partner-bookings';
import { bundle, invokeBundle, invokeSources, bundledBooking } from '../support/bundles';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, type TestOperator } from '../support/fixtures';

/**
 * The deployed bundles of the functions that are not routes (bundles.test.ts
 * proves the routes'): the authorizer, the webhook sender, the hold sweep and
 * the platform-event recorder, each invoked in a fresh Node process as on
 * Lambda, and compared with the sources.
 */
const date = tomorrow();
let operator: TestOperator;
beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ start: date, days: 2, capacity: 10 }), { stem: 'bundled-background' });
});

const booking = (participants: number) => bundledBooking(date, participants);

describe('the deployed bundles of the functions that are not routes', () => {
  it('authorizer: allows a real key with its usage plan identifier and refuses an unknown one', async () => {
    const event = (key: string) => ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/v1/GET/api/v2/ota/marketplace/products',
      headers: { Authorization: `Bearer ${key}` },
    });
    const invocations = [
      { name: 'accepted', event: event(operator.key) },
      { name: 'refused', event: event('ak_never-issued') },
    ];
    const fromBundle = await invokeBundle(await bundle('authorizer', authorizerEntry), invocations);
    expect(fromBundle[0]).toMatchObject({
      result: {
        principalId: expect.stringMatching(/^key_/),
        usageIdentifierKey: expect.stringMatching(/^uk_/),
        policyDocument: { Statement: [{ Effect: 'Allow' }] },
        context: { operatorId: operator.operatorId },
      },
    });
    expect(fromBundle[1]).toEqual({ error: 'Unauthorized' });
    expect(await invokeSources(authorizerEntry, invocations)).toEqual(fromBundle);
  });

  it('send-webhooks: takes a batch of stream records, passing over a delivery that is not queued, and reports a record it cannot read as that record alone', async () => {
    const record = (sequenceNumber: string, image: Record<string, string>) => ({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: sequenceNumber,
        StreamViewType: 'NEW_IMAGE',
        NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])),
      },
    });
    const queued = (deliveryId: string) => ({
      OperatorID: operator.operatorId,
      DeliveryID: deliveryId,
      QueuedAt: new Date(0).toISOString(),
    });
    const invocations = [
      { name: 'accepted', event: { Records: [record('1', queued('dlv_none'))] } },
      { name: 'refused', event: { Records: [record('2', { Entity: 'WebhookDelivery' }), record('3', queued('dlv_other'))] } },
    ];
    const fromBundle = await invokeBundle(await bundle(webhookSender.id, webhookSender.entry), invocations);
    expect(fromBundle[0]).toEqual({ result: { batchItemFailures: [] } });
    expect(fromBundle[1]).toEqual({ result: { batchItemFailures: [{ itemIdentifier: '2' }] } });
    expect(await invokeSources(webhookSender.entry, invocations)).toEqual(fromBundle);
  });

  it('expire-holds: the bundled sweep expires a hold that is due', async () => {
    // Placed two hours ago for 30 minutes: due now.
    const caller = { operatorId: operator.operatorId, keyId: 'key_bundled', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
    const placedAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const { booking: hold } = await createPartnerBooking(caller, { ...booking(1), Hold: { ExpiresInMinutes: 30 } }, undefined, placedAt);
    expect(hold.Status).toBe('ON_HOLD');

    const sweep = scheduledFunctions.find((row) => row.id === 'expire-holds')!;
    const [fromBundle] = await invokeBundle(await bundle(sweep.id, sweep.entry), [{ name: 'scheduled', event: {} }]);
    expect(fromBundle).toEqual({ result: { expired: expect.any(Number), timeslotCancellationsFinished: expect.any(Number) } });
    expect((fromBundle as { result: { expired: number } }).result.expired).toBeGreaterThanOrEqual(1);
    expect((await getPartnerBooking(caller, hold.BookingReference)).Status).toBe('EXPIRED');
  });

  it('record-platform-event: records an EventBridge event, and fails on one it can never record', async () => {
    const event = (id: string, detail: Record<string, unknown>): EventBridgeEvent<string, unknown> => ({
      version: '0',
      id,
      'detail-type': 'Order Completed',
      source: 'platform.orders',
      account: '000000000000',
      time: `${date}T10:00:00Z`,
      region: 'eu-west-1',
      resources: [],
      detail,
    });
    const invocations = [
      {
        name: 'accepted',
        event: event('5b0c1d2e-0000-4000-8000-00000000b001', { OperatorID: operator.operatorId, BasketID: 'b_bundled' }),
      },
      { name: 'refused', event: event('5b0c1d2e-0000-4000-8000-00000000b002', { OperatorID: operator.operatorId }) },
    ];
    const fromBundle = await invokeBundle(await bundle('record-platform-event', recordPlatformEventEntry), invocations);
    expect(fromBundle[0]).toMatchObject({ result: { outcome: 'recorded', meter: 'order-completed', operatorId: operator.operatorId } });
    expect(fromBundle[1]).toEqual({ error: expect.stringMatching(/BasketID/) });
    // The sources see the same event again: the same entry, as a replay.
    const fromSources = await invokeSources(recordPlatformEventEntry, invocations);
    expect(fromSources[0]).toEqual({ result: { ...(fromBundle[0] as { result: object }).result, outcome: 'replayed' } });
    expect(fromSources[1]).toEqual(fromBundle[1]);
  });
});
