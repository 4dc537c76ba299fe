import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { handler } from '../../functions/events/record-platform-event';
import { eventRules } from '../../shared/api/event-rules';
import { startLocalHost, type LocalHost } from '../../lib/local/host';
import { sigV4Authorization } from '../../scripts/fuzz/raw-http';
import { documentClient, tableName } from '../../shared/db/client';
import * as usageKeys from '../../shared/db/usage-keys';
import { recordPlatformEvent as recordEventEntry } from '../../shared/usage/platform-events';
import { recordUsage } from '../../shared/usage/record-usage';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { createTestOperator, httpClient, type HttpClient, type TestOperator } from '../support/fixtures';
import { captureOutput, type CapturedOutput } from '../support/logs';

/** The function as EventBridge invokes it (asynchronously, with a Lambda context). */
const recordPlatformEvent = (event: EventBridgeEvent<string, unknown>) => handler(event, {} as Context);

let host: LocalHost;
let request: HttpClient;
let events: EventBridgeClient;
let logs: CapturedOutput;

beforeAll(async () => {
  host = await startLocalHost({ eventBus: { retryDelaysMs: [10, 20] } });
  request = httpClient(host);
  events = new EventBridgeClient({ endpoint: host.url, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

afterAll(async () => {
  events.destroy();
  await host.close();
});

beforeEach(() => {
  // Failed deliveries are logged; the tests below read the log.
  logs = captureOutput('ERROR');
});

afterEach(() => logs.restore());

const rule = (meter: string) => eventRules.find((candidate) => candidate.meter === meter)!;

const entry = (meter: string, detail: Record<string, unknown>, time?: Date): PutEventsRequestEntry => ({
  Source: rule(meter).source,
  DetailType: rule(meter).detailType,
  Detail: JSON.stringify(detail),
  Time: time,
});

const summary = async (operator: TestOperator, day: string) =>
  (await request('GET', `/api/v2/usage/meters?from=${day}&to=${day}`, { key: operator.key })).json.data;

async function entriesOf(operatorId: string) {
  const items: Record<string, any>[] = [];
  for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
    const { PK, SKPrefix } = usageKeys.entryPrefix(operatorId, shard);
    const { Items } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      }),
    );
    items.push(...(Items ?? []));
  }
  return items;
}

describe('PutEvents on the local host', () => {
  it('records each built-in meter for the operator named in the event, at the event time', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events' });
    const time = new Date('2026-05-05T10:20:30Z');
    const output = await events.send(
      new PutEventsCommand({
        Entries: [
          entry('order-completed', { OperatorID: operator.operatorId, BasketID: 'b_123' }, time),
          entry('waitlist-notified', { OperatorID: operator.operatorId, WaitlistID: 'w_9', MultiBookingID: 4411 }, time),
          entry('workflow-email-sent', { OperatorID: operator.operatorId }, time),
          entry('workflow-email-sent', { OperatorID: operator.operatorId }, time),
        ],
      }),
    );
    expect(output.FailedEntryCount).toBe(0);
    expect(output.Entries).toHaveLength(4);
    for (const result of output.Entries ?? []) expect(result.EventId).toMatch(/^[0-9a-f-]{36}$/);

    await host.eventBus.idle();
    const data = await summary(operator, '2026-05-05');
    expect(data.Meters).toEqual([
      { Meter: 'workflow-email-sent', TotalUsage: 2, EventCount: 2 },
      { Meter: 'order-completed', TotalUsage: 1, EventCount: 1 },
      { Meter: 'waitlist-notified', TotalUsage: 1, EventCount: 1 },
    ]);
    expect(data.Totals).toEqual({ Usage: 4, Events: 4 });

    const stored = await entriesOf(operator.operatorId);
    const extraInfo = Object.fromEntries(stored.map((item) => [item.Meter, item.ExtraInfo]));
    expect(extraInfo).toEqual({
      'order-completed': '{"BasketID":"b_123"}',
      'waitlist-notified': '{"WaitlistID":"w_9","MultiBookingID":4411}',
      'workflow-email-sent': undefined,
    });
    expect(stored.every((item) => item.OccurredAt === time.getTime() / 1000)).toBe(true);
  });

  it('copies integer identifiers up to 2^53 - 1 exactly, and refuses larger ones, which may not be the number sent', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-ids' });
    const time = new Date('2026-05-06T10:00:00Z');
    const before = host.eventBus.deadLetters.length;
    // As text: the function sees the detail parsed, and 9007199254740993 arrives as 9007199254740992.
    const order = (basketId: string) => ({
      ...entry('order-completed', {}, time),
      Detail: `{"OperatorID":"${operator.operatorId}","BasketID":${basketId}}`,
    });
    const output = await events.send(
      new PutEventsCommand({ Entries: [order('9007199254740991'), order('9007199254740993'), order('12.5')] }),
    );
    expect(output.FailedEntryCount).toBe(0);
    await host.eventBus.idle();
    expect((await entriesOf(operator.operatorId)).map((item) => item.ExtraInfo)).toEqual(['{"BasketID":9007199254740991}']);
    expect(host.eventBus.deadLetters.slice(before).map((letter) => letter.error)).toEqual([
      'detail.BasketID missing or not an identifier (a string of 1 to 128 characters, or a whole number from 0 to 9007199254740991)',
      'detail.BasketID missing or not an identifier (a string of 1 to 128 characters, or a whole number from 0 to 9007199254740991)',
    ]);
  });

  it('shows built-in meters next to custom meters', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-mixed' });
    const time = new Date('2026-05-06T08:00:00Z');
    await request('POST', '/api/v2/usage/meters', {
      key: operator.key,
      body: { Meter: 'sms', Usage: 1.5, OccurredAt: time.getTime() / 1000 },
    });
    await events.send(
      new PutEventsCommand({ Entries: [entry('order-completed', { OperatorID: operator.operatorId, BasketID: 'b_1' }, time)] }),
    );
    await host.eventBus.idle();
    expect((await summary(operator, '2026-05-06')).Meters).toEqual([
      { Meter: 'sms', TotalUsage: 1.5, EventCount: 1 },
      { Meter: 'order-completed', TotalUsage: 1, EventCount: 1 },
    ]);
  });

  it('reports entries it cannot accept, accepts the rest, and ignores events no rule matches', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-bad' });
    const deadLettersBefore = host.eventBus.deadLetters.length;
    const time = new Date('2026-05-07T08:00:00Z');
    const output = await events.send(
      new PutEventsCommand({
        Entries: [
          { ...entry('order-completed', { OperatorID: operator.operatorId, BasketID: 'b_2' }, time), Detail: '{not json' },
          { ...entry('order-completed', { OperatorID: operator.operatorId, BasketID: 'b_3' }, time), EventBusName: 'elsewhere' },
          {
            Source: 'platform.orders',
            DetailType: 'Order Refunded',
            Detail: JSON.stringify({ OperatorID: operator.operatorId }),
            Time: time,
          },
          entry('order-completed', { OperatorID: operator.operatorId, BasketID: 'b_4' }, time),
        ],
      }),
    );
    expect(output.FailedEntryCount).toBe(2);
    expect(output.Entries?.[0]).toEqual(expect.objectContaining({ ErrorCode: 'MalformedDetail' }));
    expect(output.Entries?.[1]).toEqual(expect.objectContaining({ ErrorCode: 'NotFoundException' }));
    expect(output.Entries?.[2].EventId).toBeDefined();
    expect(output.Entries?.[3].EventId).toBeDefined();
    await host.eventBus.idle();
    expect((await summary(operator, '2026-05-07')).Meters).toEqual([{ Meter: 'order-completed', TotalUsage: 1, EventCount: 1 }]);
    expect(host.eventBus.deadLetters).toHaveLength(deadLettersBefore);
  });

  it('refuses an entry with an unusable Time without failing the rest of the call', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-time' });
    const detail = (basket: string) => JSON.stringify({ OperatorID: operator.operatorId, BasketID: basket });
    const response = await fetch(`${host.url}/`, {
      method: 'POST',
      headers: { 'X-Amz-Target': 'AWSEvents.PutEvents', 'Content-Type': 'application/x-amz-json-1.1', Authorization: sigV4Authorization() },
      body: JSON.stringify({
        Entries: [
          {
            Source: 'platform.orders',
            DetailType: 'Order Completed',
            Detail: detail('b_t1'),
            Time: Date.parse('2026-05-10T08:00:00Z') / 1000,
          },
          { Source: 'platform.orders', DetailType: 'Order Completed', Detail: detail('b_t2'), Time: 1e30 },
          { Source: 'platform.orders', DetailType: 'Order Completed', Detail: detail('b_t3'), Time: 'soon' },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const output = (await response.json()) as { FailedEntryCount: number; Entries: unknown[] };
    expect(output.FailedEntryCount).toBe(2);
    expect(output.Entries.slice(1)).toEqual([
      expect.objectContaining({ ErrorCode: 'InvalidArgument' }),
      expect.objectContaining({ ErrorCode: 'InvalidArgument' }),
    ]);
    await host.eventBus.idle();
    expect((await summary(operator, '2026-05-10')).Meters).toEqual([{ Meter: 'order-completed', TotalUsage: 1, EventCount: 1 }]);
  });

  it('refuses a call with more than 10 entries, as EventBridge does', async () => {
    const entries = Array.from({ length: 11 }, () => entry('workflow-email-sent', { OperatorID: 'nobody' }));
    await expect(events.send(new PutEventsCommand({ Entries: entries }))).rejects.toThrow(/between 1 and 10/);
  });

  it('logs and dead-letters a malformed event or one for an unknown operator, after retrying', async () => {
    const before = host.eventBus.deadLetters.length;
    const output = await events.send(
      new PutEventsCommand({
        Entries: [
          entry('order-completed', { OperatorID: 'no-such-operator-x1', BasketID: 'b_5' }),
          entry('waitlist-notified', { OperatorID: 'whoever', WaitlistID: 'w_1' }),
          entry('workflow-email-sent', { Operator: 'typo' }),
        ],
      }),
    );
    expect(output.FailedEntryCount).toBe(0);
    await host.eventBus.idle();
    const letters = host.eventBus.deadLetters.slice(before);
    expect(letters.map((letter) => [letter.event['detail-type'], letter.attempts])).toEqual(
      expect.arrayContaining([
        ['Order Completed', 3],
        ['Waitlist Notification Sent', 3],
        ['Workflow Email Sent', 3],
      ]),
    );
    expect(letters.map((letter) => letter.error).sort()).toEqual([
      "Operator 'no-such-operator-x1' does not exist",
      'detail.MultiBookingID missing or not an identifier (a string of 1 to 128 characters, or a whole number from 0 to 9007199254740991)',
      'detail.OperatorID is missing or not an operator ID',
    ]);
    const failures = logs.lines().filter((line) => line.message === 'Platform event not recorded');
    expect(failures.filter((line) => line.level === 'ERROR' && line.retryable === false && line.error?.stack)).toHaveLength(9);
    expect(
      logs.lines().filter((line) => line.level === 'ERROR' && line.message === 'Dead letter: platform event not recorded'),
    ).toHaveLength(3);
  });
});

describe('redelivery', () => {
  it('counts a redelivered event once, also when the deliveries overlap', async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-redeliver' });
    const event: EventBridgeEvent<string, unknown> = {
      version: '0',
      id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
      'detail-type': 'Order Completed',
      source: 'platform.orders',
      account: '000000000000',
      time: '2026-05-08T09:00:00Z',
      region: 'local',
      resources: [],
      detail: { OperatorID: operator.operatorId, BasketID: 'b_again' },
    };
    await recordPlatformEvent(event);
    await Promise.all([recordPlatformEvent(event), recordPlatformEvent(event), recordPlatformEvent(event)]);
    expect((await summary(operator, '2026-05-08')).Meters).toEqual([{ Meter: 'order-completed', TotalUsage: 1, EventCount: 1 }]);
    expect(await entriesOf(operator.operatorId)).toHaveLength(1);
  });

  it("keeps event IDs apart from clients' Idempotency-Key values", async () => {
    const operator = await createTestOperator(undefined, { stem: 'events-keys' });
    const id = 'b0b2c9a4-2f1e-4d8a-9b1f-0c6f1f7e2a11';
    const clientEntry = await recordUsage(
      operator.operatorId,
      { Meter: 'api-calls', Usage: 1, OccurredAt: Date.parse('2026-05-09T08:00:00Z') / 1000 },
      { idempotencyKey: id },
    );
    const eventEntry = await recordEventEntry(
      {
        version: '0',
        id,
        'detail-type': 'Workflow Email Sent',
        source: 'platform.workflows',
        account: '000000000000',
        time: '2026-05-09T09:00:00Z',
        region: 'local',
        resources: [],
        detail: { OperatorID: operator.operatorId },
      },
      'workflow-email-sent',
    );
    expect(eventEntry.replayed).toBe(false);
    expect(eventEntry.entry.ID).not.toBe(clientEntry.entry.ID);
    expect((await summary(operator, '2026-05-09')).Meters).toEqual([
      { Meter: 'api-calls', TotalUsage: 1, EventCount: 1 },
      { Meter: 'workflow-email-sent', TotalUsage: 1, EventCount: 1 },
    ]);
  });
});
