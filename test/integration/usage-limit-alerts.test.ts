import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { EventBridgeEvent } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import type { LocalHost } from '../../lib/local/host';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local';
import { eventRules } from '../../shared/api/event-rules';
import { config } from '../../shared/core/config';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from '../support/fixtures';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';
import { limitsClient, usageClient, USAGE_WEBHOOK } from '../support/usage';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Threshold alerts through the local host, its table stream and its event
 * bus: exactly one usage.threshold.crossed per (limit, threshold, period),
 * to the operator's usage endpoint (signed as Standard Webhooks specifies)
 * and to EventBridge, however many batches cross it at once; resolved when a
 * void takes Used back under, crossed again after; single entries, batches
 * and platform events all count; a crash between the write and the send
 * still sends one event, again with the same id until it is delivered.
 */
// Java starts once more for this file, which takes long on a busy machine.
jest.setTimeout(180_000);

let dynamo: DynamoDbLocal;
let host: LocalHost;
let request: HttpClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // A DynamoDB Local of its own, its stream this file's to read: the 20 concurrent batches' transactions must each end within the
  // functions' 10 s, however much other files wrote to the run's shared one before.
  dynamo = await startDynamoDbLocal();
  await useOwnTable({ tableName: 'ota-usage-limit-alerts-test', dynamoEndpoint: dynamo.endpoint, webhookTargets: 'loopback-http' });
  host = await startTestHost();
  request = httpClient(host);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await host.close();
  await receiver.stop();
  await dynamo.stop();
});

/**
 * Reads the stream until nothing more comes of it: the watcher's decisions
 * and the sender's deliveries are records of their own, so it is read again
 * until a reading hands nothing over, however long each takes.
 */
async function settle(): Promise<void> {
  while ((await host.tableStream.idle()) > 0);
}

interface Watched {
  operator: TestOperator;
  usage: ReturnType<typeof usageClient>;
  limits: ReturnType<typeof limitsClient>;
  secret: string;
  path: string;
}

/** An operator with a usage endpoint on the receiver at a path of its own, and a limit. */
async function watched(stem: string, limit: Record<string, unknown>): Promise<Watched> {
  const operator = await createTestOperator(undefined, { stem, timeZone: 'UTC' });
  const path = `/${stem}`;
  const registered = await request('PUT', USAGE_WEBHOOK, { key: operator.key, body: { Url: receiver.url(path) } });
  expect(registered.status).toBe(200);
  const limits = limitsClient(request, operator);
  expect((await limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Enforcement: 'NONE', ...limit })).status).toBe(200);
  return { operator, usage: usageClient(request, operator), limits, secret: registered.json.data.Secret, path };
}

const hooksOf = ({ path }: Watched) =>
  receiver.received
    .filter((one) => one.path === path)
    .map((one) => ({ id: one.headers['webhook-id'] as string, ...(JSON.parse(one.body) as { type: string; data: Record<string, any> }) }));

type BusDetail = { id: string; OperatorID: string; type: string; timestamp: string; data: Record<string, any> };
const busEventsOf = ({ operator }: Watched) =>
  host.eventBus.events
    .filter((event) => event.source === 'ota.usage' && (event.detail as BusDetail).OperatorID === operator.operatorId)
    .map((event) => event as EventBridgeEvent<string, BusDetail>);

const summaryOf = (events: { type: string; data: Record<string, any> }[]) =>
  events.map((event) => `${event.type.split('.')[2]} ${event.data.Threshold}`);

describe('the usage webhook endpoint', () => {
  it('shows its secret once, reads back without it, and is removed; usage:write to change, usage:read to read', async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-hook' });
    const put = await request('PUT', USAGE_WEBHOOK, { key: operator.key, body: { Url: receiver.url('/endpoint') } });
    expect(put.json.data).toEqual({
      Url: receiver.url('/endpoint'),
      EventTypes: ['usage.threshold.crossed', 'usage.threshold.resolved'],
      CreatedAt: expect.any(String),
      Secret: expect.stringMatching(/^whsec_/),
      Status: 'ACTIVE',
    });
    const reader = await operator.keyWith(['usage:read']);
    expect((await request('GET', USAGE_WEBHOOK, { key: reader })).json.data).toEqual({
      Url: receiver.url('/endpoint'),
      EventTypes: ['usage.threshold.crossed', 'usage.threshold.resolved'],
      CreatedAt: put.json.data.CreatedAt,
      Status: 'ACTIVE',
    });
    expectProblem(await request('PUT', USAGE_WEBHOOK, { key: reader, body: { Url: receiver.url('/x') } }), 403, { octo: true });
    expectProblem(await request('PUT', USAGE_WEBHOOK, { key: operator.key, body: { Url: 'https://10.0.0.5/hooks' } }), 422, {
      detail: /^Field 'Url' must not point to a private/,
    });
    expect((await request('DELETE', USAGE_WEBHOOK, { key: operator.key })).status).toBe(204);
    expectProblem(await request('GET', USAGE_WEBHOOK, { key: operator.key }), 404, {
      detail: /^This operator has no usage webhook endpoint; register one with PUT$/,
    });
    expectProblem(await request('DELETE', USAGE_WEBHOOK, { key: operator.key }), 404);
  });
});

describe("the usage endpoint's signing secret", () => {
  it('is kept encrypted, and the one a registration replaced still signs alerts beside the new one', async () => {
    const subject = await watched('alerts-rotated', { Amount: 10, Thresholds: [100] });
    const replaced = await request('PUT', USAGE_WEBHOOK, { key: subject.operator.key, body: { Url: receiver.url(subject.path) } });
    const secret: string = replaced.json.data.Secret;
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: config().tableName, Key: webhookKeys.usageEndpoint(subject.operator.operatorId), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ EncryptedSecret: expect.any(String), PreviousSecrets: [{ EncryptedSecret: expect.any(String) }] });
    expect(Item).not.toHaveProperty('Secret');
    for (const clear of [subject.secret, secret]) expect(JSON.stringify(Item)).not.toContain(clear.slice('whsec_'.length));
    await subject.usage.record({ Meter: 'api-calls', Usage: 10 });
    await settle();
    const [alert] = receiver.received.filter((one) => one.path === subject.path);
    const headers = alert.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const either of [secret, subject.secret])
      expect(new Webhook(either).verify(alert.body, headers)).toMatchObject({ type: 'usage.threshold.crossed' });
  });
});

describe('crossing thresholds', () => {
  it('sends each threshold crossed once, signed, to the endpoint and to EventBridge, with the status at the crossing', async () => {
    const subject = await watched('alerts-cross', { Amount: 100, Thresholds: [50, 80, 100] });
    await subject.usage.record({ Meter: 'api-calls', Usage: 49.999999 });
    await settle();
    expect(hooksOf(subject)).toEqual([]);
    await subject.usage.record({ Meter: 'api-calls', Usage: 0.000001 });
    await settle();
    await subject.usage.batch([
      { Meter: 'api-calls', Usage: 20 },
      { Meter: 'api-calls', Usage: 10 },
    ]);
    await settle();
    const hooks = hooksOf(subject);
    expect(summaryOf(hooks)).toEqual(['crossed 50', 'crossed 80']);
    expect(hooks[0].data).toEqual({
      LimitID: 'cap',
      Meter: 'api-calls',
      Used: 50,
      Remaining: 50,
      Amount: 100,
      PeriodStart: expect.any(Number),
      ResetsAt: expect.any(Number),
      Allowed: true,
      Thresholds: [
        { Percent: 50, Crossed: true },
        { Percent: 80, Crossed: false },
        { Percent: 100, Crossed: false },
      ],
      Threshold: 50,
      Period: 'MONTH',
    });
    expect(hooks[1].data).toMatchObject({ Used: 80, Threshold: 80 });

    const received = receiver.received.filter((one) => one.path === subject.path);
    for (const one of received) expect(new Webhook(subject.secret).verify(one.body, one.headers as Record<string, string>)).toBeTruthy();

    const bus = busEventsOf(subject);
    expect(bus.map((event) => [event['detail-type'], event.detail.data.Threshold])).toEqual([
      ['Usage Threshold Crossed', 50],
      ['Usage Threshold Crossed', 80],
    ]);
    expect(bus[0].detail).toEqual({
      id: expect.stringMatching(/^msg_/),
      OperatorID: subject.operator.operatorId,
      type: 'usage.threshold.crossed',
      timestamp: expect.any(String),
      data: hooks[0].data,
    });
    expect(await subject.limits.status('cap')).toMatchObject({
      Used: 80,
      Thresholds: [{ Crossed: true }, { Crossed: true }, { Crossed: false }],
    });
  });

  it('sends exactly one crossed when 20 batches cross the same threshold at once', async () => {
    const subject = await watched('alerts-race', { Amount: 1000, Thresholds: [50, 90] });
    const batch = () => subject.usage.batch(Array.from({ length: 10 }, () => ({ Meter: 'api-calls', Usage: 2.5 })));
    const answers = await Promise.all(Array.from({ length: 20 }, batch));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    await settle();
    expect(summaryOf(hooksOf(subject))).toEqual(['crossed 50']);
    expect(busEventsOf(subject)).toHaveLength(1);
    expect(await subject.limits.status('cap')).toMatchObject({ Used: 500 });
  });

  it('sends resolved when a void takes Used back under, and crossed again when it crosses again', async () => {
    const subject = await watched('alerts-void', { Amount: 10, Thresholds: [50] });
    const first = (await subject.usage.record({ Meter: 'api-calls', Usage: 6 })).json.data.ID;
    await settle();
    expect((await subject.usage.voidEntry(first)).status).toBe(200);
    await settle();
    await subject.usage.record({ Meter: 'api-calls', Usage: 4 });
    await settle();
    await subject.usage.record({ Meter: 'api-calls', Usage: 1 });
    await settle();
    const hooks = hooksOf(subject);
    expect(summaryOf(hooks)).toEqual(['crossed 50', 'resolved 50', 'crossed 50']);
    expect(hooks[1].data).toMatchObject({ Used: 0, Thresholds: [{ Percent: 50, Crossed: false }] });
    expect(new Set(hooks.map((hook) => hook.id)).size).toBe(3);
    expect(busEventsOf(subject).map((event) => event['detail-type'])).toEqual([
      'Usage Threshold Crossed',
      'Usage Threshold Resolved',
      'Usage Threshold Crossed',
    ]);
  });

  it('counts the platform events of a built-in meter', async () => {
    const subject = await watched('alerts-platform', { Meter: 'order-completed', Amount: 2, Thresholds: [100] });
    const events = new EventBridgeClient({
      endpoint: host.url,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const rule = eventRules.find((candidate) => candidate.meter === 'order-completed')!;
    const order = (basket: string) => ({
      Source: rule.source,
      DetailType: rule.detailType,
      Detail: JSON.stringify({ OperatorID: subject.operator.operatorId, BasketID: basket }),
    });
    try {
      await events.send(new PutEventsCommand({ Entries: [order('b_1'), order('b_2'), order('b_3')] }));
      await host.eventBus.idle();
    } finally {
      events.destroy();
    }
    await settle();
    expect(summaryOf(hooksOf(subject))).toEqual(['crossed 100']);
    // The status when the crossing was decided: the third order had been recorded by then.
    expect(hooksOf(subject)[0].data).toMatchObject({ Meter: 'order-completed', Used: 3, Remaining: 0, Allowed: false });
  });

  it('sends crossed at once for a limit put where the period already passed its thresholds, and nothing for another operator', async () => {
    const subject = await watched('alerts-put', { Amount: 1000, Thresholds: [90] });
    await subject.usage.record({ Meter: 'api-calls', Usage: 60 });
    await settle();
    expect(hooksOf(subject)).toEqual([]);
    const other = await watched('alerts-other', { Amount: 10, Thresholds: [50] });
    await subject.limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Enforcement: 'NONE', Amount: 100, Thresholds: [50, 90] });
    await settle();
    expect(summaryOf(hooksOf(subject))).toEqual(['crossed 50']);
    expect(hooksOf(other)).toEqual([]);
  });

  it('sends crossed 100 when a REFUSE limit is filled exactly', async () => {
    const subject = await watched('alerts-refuse', { Amount: 3, Thresholds: [100], Enforcement: 'REFUSE' });
    await Promise.all([1, 1, 1, 1].map((Usage) => subject.usage.record({ Meter: 'api-calls', Usage })));
    await settle();
    expect(summaryOf(hooksOf(subject))).toEqual(['crossed 100']);
    expect(hooksOf(subject)[0].data).toMatchObject({ Used: 3, Remaining: 0, Allowed: false });
  });
});

describe('a crash between the write and the send', () => {
  /** Makes the `nth` matching DynamoDB call fail, before it is sent or after it committed. */
  async function crashing<T>(
    matches: (input: Record<string, any>) => boolean,
    when: 'before' | 'after',
    run: () => Promise<T>,
  ): Promise<{ result: T; crashes: number; lines: Record<string, any>[] }> {
    let crashes = 0;
    const stack = documentClient().middlewareStack;
    stack.add(
      (next) => async (args) => {
        const crash = crashes === 0 && matches(args.input as Record<string, any>);
        if (crash && when === 'before') {
          crashes += 1;
          throw new Error('The process stopped before the write');
        }
        const output = await next(args);
        if (crash) {
          crashes += 1;
          throw new Error('The process stopped after the write committed');
        }
        return output;
      },
      { step: 'initialize', name: 'crash' },
    );
    try {
      const { result, lines } = await logsDuring(run, 'ERROR');
      return { result, crashes, lines };
    } finally {
      stack.remove('crash');
    }
  }

  const decision = (input: Record<string, any>) => input.TransactItems?.[0]?.Put?.Item?.Entity === 'UsageAlertState';
  /** The sender recording as delivered what the endpoint at `path` received (its key ends with the webhook-id it was sent). */
  const deliveredTo = (path: string) => (input: Record<string, any>) =>
    input.ExpressionAttributeValues?.[':status'] === 'DELIVERED' &&
    receiver.received.some((one) => one.path === path && String(input.Key?.PK).endsWith(`#${one.headers['webhook-id']}`));

  it.each(['before', 'after'] as const)(
    'decides once when the watcher stops %s its decision commits: the record handed over again',
    async (when) => {
      const subject = await watched(`alerts-crash-${when}`, { Amount: 10, Thresholds: [50] });
      const { crashes, lines } = await crashing(decision, when, async () => {
        await subject.usage.record({ Meter: 'api-calls', Usage: 7 });
        await settle();
      });
      expect(crashes).toBe(1);
      expect(lines).toEqual([expect.objectContaining({ message: 'Usage threshold alerts not decided' })]);
      expect(summaryOf(hooksOf(subject))).toEqual(['crossed 50']);
      expect(busEventsOf(subject)).toHaveLength(1);
      expect(host.tableStream.deadLetters).toEqual([]);
    },
  );

  it('sends again with the same webhook-id and body when the sender stops after sending, before it records the delivery', async () => {
    const subject = await watched('alerts-crash-send', { Amount: 10, Thresholds: [50] });
    const { crashes, lines } = await crashing(deliveredTo(subject.path), 'before', async () => {
      await subject.usage.record({ Meter: 'api-calls', Usage: 7 });
      await settle();
    });
    expect(crashes).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ message: 'Webhook delivery attempt failed' })]);
    // The endpoint's delivery was attempted again, alike: the same webhook-id and the same bytes; the bus's once.
    const received = receiver.received.filter((one) => one.path === subject.path);
    expect(received).toHaveLength(2);
    expect(new Set(received.map((one) => one.headers['webhook-id'])).size).toBe(1);
    expect(new Set(received.map((one) => one.body)).size).toBe(1);
    expect(busEventsOf(subject)).toHaveLength(1);
    expect(summaryOf(hooksOf(subject))).toEqual(['crossed 50', 'crossed 50']);
  });
});
