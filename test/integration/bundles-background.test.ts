import type { EventBridgeEvent } from 'aws-lambda';
import { announcementQueue, changeAnnouncer, scheduledFunctions, usageLimitWatcher, webhookSender } from '../../shared/api/background';
import { getTimeslotAnnouncement } from '../../shared/changes/repository';
import { recordPlatformEventEntry } from '../../shared/api/event-rules';
import { authorizerEntry } from '../../shared/api/routes';
import { createPartnerBooking, getPartnerBooking } from '../../shared/booking/partner-bookings';
import { bundle, invokeBundle, invokeSources, bundledBooking } from '../support/bundles';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, startTestHost, type TestOperator } from '../support/fixtures';
import type { LocalHost } from '../../lib/local/host';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { registerWebhook } from '../../shared/webhooks/endpoints';
import type { DeliveryItem } from '../../shared/webhooks/model';
import { getDelivery, putDeliveryOnce } from '../../shared/webhooks/repository';
import { getAlertState, getLimitItem } from '../../shared/usage/limit-repository';
import * as limitKeys from '../../shared/db/limit-keys';
import { putUsageLimit } from '../../shared/usage/limits';
import { recordUsage } from '../../shared/usage/record-usage';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { attributeClient, tableName } from '../../shared/db/client';
import { shardOf } from '../../shared/usage/ids';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';

/**
 * The deployed bundles of the functions that are not routes (bundles.test.ts
 * proves the routes'): the authorizer, the webhook sender, the hold sweep and
 * the platform-event recorder, each invoked in a fresh Node process as on
 * Lambda, and compared with the sources.
 */
const date = tomorrow();
let operator: TestOperator;
/** Only for its KMS: the sender decrypts the secrets it signs with there, the bundle as the sources. */
let host: LocalHost;
beforeAll(async () => {
  host = await startTestHost();
  operator = await createTestOperator(testCatalog({ start: date, days: 2, capacity: 10 }), { stem: 'bundled-background' });
});
afterAll(() => host.close());

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

  it("send-webhooks: decrypts the endpoint's signing secret with KMS before it attempts the delivery", async () => {
    const { KeyID } = (await findActiveKey(operator.key))!;
    await registerWebhook({ operatorId: operator.operatorId, keyId: KeyID }, { Url: 'https://hooks.partner.example/ota' });
    const now = new Date();
    const delivery: DeliveryItem = {
      DeliveryID: 'msg_bundledsenderdelivery00',
      OperatorID: operator.operatorId,
      KeyID,
      EventType: 'booking.confirmed',
      Payload: '{"type":"booking.confirmed"}',
      CreatedAt: now.toISOString(),
      Status: 'PENDING',
      Attempts: 0,
      NextAttemptAt: now.toISOString(),
      QueuedAt: now.toISOString(),
    };
    expect(await putDeliveryOnce(delivery)).toBe(true);
    const image = { OperatorID: operator.operatorId, DeliveryID: delivery.DeliveryID, QueuedAt: delivery.QueuedAt as string };
    const record = {
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: '1', NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])) },
    };
    const [fromBundle] = await invokeBundle(await bundle(webhookSender.id, webhookSender.entry), [
      { name: 'attempt', event: { Records: [record] } },
    ]);
    expect(fromBundle).toEqual({ result: { batchItemFailures: [] } });
    // Signed, then sent to a host no resolver knows here: the attempt fails after the secret was decrypted, not before.
    const attempted = await getDelivery(operator.operatorId, delivery.DeliveryID);
    expect(attempted).toMatchObject({ Status: 'PENDING', Attempts: 1, LastError: expect.any(String) });
    expect(attempted!.LastError).toMatch(/hooks\.partner\.example/);
  });

  it('announce-changes: announces a timeslot write once (the sources, handed it again, find it announced) and reports a record without its image alone', async () => {
    const keys = { PK: { S: `OP#${operator.operatorId}#ACT#s_walk1` }, SK: { S: `SLOT#${date}#09:00` } };
    const image = {
      ...keys,
      Capacity: { N: '10' },
      Vacancies: { N: '7' },
      Sequence: { N: '41' },
      ChangedAt: { S: new Date().toISOString() },
    };
    const record = (sequenceNumber: string, withImage: boolean) => ({
      eventName: 'MODIFY',
      eventSource: 'aws:dynamodb',
      dynamodb: { SequenceNumber: sequenceNumber, Keys: keys, ...(withImage ? { NewImage: image } : {}) },
    });
    const invocations = [
      { name: 'accepted', event: { Records: [record('1', true)] } },
      { name: 'refused', event: { Records: [record('2', false)] } },
    ];
    const fromBundle = await invokeBundle(await bundle(changeAnnouncer.id, changeAnnouncer.entry), invocations);
    expect(fromBundle).toEqual([{ result: { batchItemFailures: [] } }, { result: { batchItemFailures: [{ itemIdentifier: '2' }] } }]);
    const ref = { OperatorID: operator.operatorId, ActivityID: 's_walk1', Date: date, Time: '09:00' };
    const announced = await getTimeslotAnnouncement(ref);
    expect(announced).toMatchObject({ Sequence: 41, Status: 'AVAILABLE', Vacancies: 7, Capacity: 10 });
    expect(await invokeSources(changeAnnouncer.entry, invocations)).toEqual(fromBundle);
    expect(await getTimeslotAnnouncement(ref)).toEqual(announced);
  });

  it('flush-announcements: passes over a flush that is not waiting, and reports a message it cannot read as that message alone', async () => {
    const message = (messageId: string, body: string) => ({
      messageId,
      body,
      attributes: {},
      messageAttributes: {},
      eventSource: 'aws:sqs',
    });
    const flush = { OperatorID: operator.operatorId, ActivityID: 's_walk1', Date: date, Time: '14:00', FlushAt: new Date(0).toISOString() };
    const invocations = [
      { name: 'accepted', event: { Records: [message('m1', JSON.stringify(flush))] } },
      { name: 'refused', event: { Records: [message('m2', '{"OperatorID":7}'), message('m3', JSON.stringify(flush))] } },
    ];
    const { consumer } = announcementQueue;
    const fromBundle = await invokeBundle(await bundle(consumer.id, consumer.entry), invocations);
    expect(fromBundle).toEqual([{ result: { batchItemFailures: [] } }, { result: { batchItemFailures: [{ itemIdentifier: 'm2' }] } }]);
    expect(await invokeSources(consumer.entry, invocations)).toEqual(fromBundle);
  });

  it('flush-overdue: the bundled sweep runs and says how many flushes it made', async () => {
    const sweep = scheduledFunctions.find((row) => row.id === 'flush-overdue')!;
    const [fromBundle] = await invokeBundle(await bundle(sweep.id, sweep.entry), [{ name: 'scheduled', event: {} }]);
    expect(fromBundle).toEqual({ result: { flushed: expect.any(Number) } });
  });

  it('watch-usage-limits: decides the alerts of a limit whose gate a record names, and of the NONE limits a recording counted in a guard, and reports a record it cannot read as that record alone', async () => {
    const month = new Date().toISOString().slice(0, 7);
    await putUsageLimit({ operatorId: operator.operatorId, timeZone: 'UTC' }, 'watched', {
      Meter: 'watched',
      Period: 'MONTH',
      Amount: 10,
      Thresholds: [50],
      Enforcement: 'REFUSE',
    });
    await recordUsage(operator.operatorId, { Meter: 'watched', Usage: 6 });
    const { GateKey } = (await getLimitItem(operator.operatorId, 'watched'))!;
    await putUsageLimit({ operatorId: operator.operatorId, timeZone: 'UTC' }, 'counted', {
      Meter: 'counted',
      Period: 'MONTH',
      Amount: 10,
      Thresholds: [50],
      Enforcement: 'NONE',
    });
    const { entry } = await recordUsage(operator.operatorId, { Meter: 'counted', Usage: 7 });
    // The guard as the recording left it, as its stream record carries it.
    const guardKey = limitKeys.guard(operator.operatorId, shardOf(entry.ID, AGGREGATE_SHARDS), 'counted');
    const { Item: guard } = await attributeClient().send(
      new GetItemCommand({ TableName: tableName(), Key: { PK: { S: guardKey.PK }, SK: { S: guardKey.SK } }, ConsistentRead: true }),
    );
    const record = (sequenceNumber: string, image: Record<string, string>) => ({
      eventName: 'MODIFY',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: sequenceNumber,
        StreamViewType: 'NEW_IMAGE',
        NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])),
      },
    });
    const gate = { Entity: 'UsageGate', OperatorID: operator.operatorId, LimitID: 'watched', GateKey, PeriodKey: month };
    const invocations = [
      { name: 'accepted', event: { Records: [record('1', gate), record('2', gate)] } },
      { name: 'refused', event: { Records: [record('3', { Entity: 'UsageGate' }), record('4', gate)] } },
      {
        name: 'counted',
        event: { Records: [{ ...record('5', {}), dynamodb: { SequenceNumber: '5', StreamViewType: 'NEW_IMAGE', NewImage: guard } }] },
      },
    ];
    const fromBundle = await invokeBundle(await bundle(usageLimitWatcher.id, usageLimitWatcher.entry), invocations);
    expect(fromBundle).toEqual([
      { result: { batchItemFailures: [] } },
      { result: { batchItemFailures: [{ itemIdentifier: '3' }] } },
      { result: { batchItemFailures: [] } },
    ]);
    expect(await getAlertState(limitKeys.alerts(operator.operatorId, GateKey, month))).toMatchObject({ Crossed: [50] });
    const counted = (await getLimitItem(operator.operatorId, 'counted'))!.GateKey;
    expect(await getAlertState(limitKeys.alerts(operator.operatorId, counted, month))).toMatchObject({ Crossed: [50] });
    // The sources decide on the same gate: nothing newer, nothing more.
    expect(await invokeSources(usageLimitWatcher.entry, invocations)).toEqual(fromBundle);
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
