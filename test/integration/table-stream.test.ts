import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../lib/local/table';
import { hashedLane, matchesPattern, passes, startLocalTableStream, type LocalTableStream } from '../../lib/local/table-stream';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { webhookSender } from '../../shared/api/background';
import { config, configure } from '../../shared/core/config';
import { attributeClient, documentClient, tableName } from '../../shared/db/client';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { newDelivery } from '../../shared/webhooks/events';
import type { DeliveryItem } from '../../shared/webhooks/model';
import { deliveryPut, putEndpoint } from '../../shared/webhooks/repository';
import { requeueDueDeliveries } from '../../shared/webhooks/retries';
import { createTestOperator, useOwnTable } from '../support/fixtures';
import { logsDuring } from '../support/logs';
import { startWebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhook sender's stream, read from DynamoDB Local as its event source
 * mapping reads it in AWS: which writes the filter hands over, a record
 * waiting behind its lane's held one while other lanes go on, each queued
 * attempt made once however often its record is handed over, the sender's
 * own writes never handed back, and a record the sender cannot work on
 * retried and then dead-lettered.
 */
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
let stream: LocalTableStream;
/** The operator and its partner keys the deliveries go to (the sender sends only to an active key's endpoint). */
let operatorId: string;
const keys = { withoutEndpoint: '', failing: '', holding: '' };

beforeAll(async () => {
  // A table of its own: what this file writes and reads on the stream is its own.
  await useOwnTable({ tableName: 'ota-usage-stream-test', webhookTargets: 'loopback-http' });
  const operator = await createTestOperator();
  operatorId = operator.operatorId;
  for (const name of ['withoutEndpoint', 'failing', 'holding'] as const)
    keys[name] = (await findActiveKey(await operator.keyWith(['ota'])))!.KeyID;
  stream = startLocalTableStream();
});

afterAll(() => stream.stop());

const record = (eventName: string, image: Record<string, string>) => ({
  eventName,
  dynamodb: { NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])) },
});

describe("the mapping's filter", () => {
  const queued = { Entity: 'WebhookDelivery', Status: 'PENDING', QueuedAt: '2026-11-24T10:00:00.000Z' };

  it('hands over the writes that queue an attempt: a new delivery, and a sweep queueing a retry', () => {
    expect(passes(webhookSender, record('INSERT', queued))).toBe(true);
    expect(passes(webhookSender, record('MODIFY', queued))).toBe(true);
  });

  it.each([
    [
      'a pending delivery no attempt is queued for (the sender recorded a failed attempt)',
      'MODIFY',
      { Entity: 'WebhookDelivery', Status: 'PENDING' },
    ],
    ['a settled delivery', 'MODIFY', { ...queued, Status: 'DELIVERED' }],
    ['another kind of item', 'INSERT', { ...queued, Entity: 'Booking' }],
    ['a delivery removed by TTL', 'REMOVE', queued],
  ])('passes over %s', (_, eventName, image) => {
    expect(passes(webhookSender, record(eventName, image))).toBe(false);
  });

  it('refuses to evaluate a rule it does not know, rather than pass or drop records unlike Lambda', () => {
    expect(() => matchesPattern({ eventName: [{ 'anything-but': ['REMOVE'] } as never] }, record('INSERT', queued))).toThrow(
      /does not evaluate/,
    );
  });
});

const deliveryAt = async (delivery: DeliveryItem) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID), ConsistentRead: true }),
    )
  ).Item as DeliveryItem;

async function writeDelivery(keyId: string, now = new Date(), id?: string): Promise<DeliveryItem> {
  const delivery = newDelivery({ operatorId, keyId }, 'booking.confirmed', { BookingReference: 'BK-STREAM' }, now, { id });
  await documentClient().send(new TransactWriteCommand({ TransactItems: [deliveryPut(delivery)] }));
  return delivery;
}

describe('reading the stream', () => {
  it('attempts a delivery written in a transaction once, and a second reader of the same records attempts nothing again', async () => {
    // No endpoint: the one attempt settles the delivery as FAILED, which shows it was made.
    const delivery = await writeDelivery(keys.withoutEndpoint);
    await stream.idle();
    const attempted = await deliveryAt(delivery);
    expect(attempted).toMatchObject({ Status: 'FAILED', Attempts: 1, LastError: 'the partner removed its webhook endpoint' });
    expect(attempted.QueuedAt).toBeUndefined();

    // Every record again, from the oldest: as a batch retried after a failure, or a mapping created anew.
    const again = startLocalTableStream();
    await again.idle();
    await again.stop();
    expect(await deliveryAt(delivery)).toEqual(attempted);
  });

  it('never hands the sender its own write back, nor a queueing that had its attempt: a failed attempt waits for the retry sweep', async () => {
    const receiver = await startWebhookReceiver();
    receiver.answer(500);
    try {
      await putEndpoint(
        webhookKeys.endpoint(operatorId, keys.failing),
        {
          OperatorID: operatorId,
          KeyID: keys.failing,
          Url: receiver.url('/failing'),
          Secret: SECRET,
          CreatedAt: '',
        },
        undefined,
      );
      const delivery = await writeDelivery(keys.failing);
      await stream.idle();
      await stream.idle();
      const failed = await deliveryAt(delivery);
      expect(failed).toMatchObject({ Status: 'PENDING', Attempts: 1, LastError: 'answered 500' });
      expect(failed.QueuedAt).toBeUndefined();
      expect(receiver.received).toHaveLength(1);

      // Its first record handed over again while the delivery is still pending: that queueing has had its attempt.
      const again = startLocalTableStream();
      await again.idle();
      await again.stop();
      expect(receiver.received).toHaveLength(1);
      expect(await deliveryAt(delivery)).toEqual(failed);

      const afterRetryIsDue = new Date(Date.parse(failed.NextAttemptAt as string) + 1000);
      expect(await requeueDueDeliveries(afterRetryIsDue)).toBe(1);
      expect((await deliveryAt(delivery)).QueuedAt).toBe(afterRetryIsDue.toISOString());
      await stream.idle();
      expect(receiver.received).toHaveLength(2);
      expect(await deliveryAt(delivery)).toMatchObject({ Status: 'PENDING', Attempts: 2 });
    } finally {
      await receiver.stop();
    }
  });

  it('tries a record the sender cannot work on again, then keeps it as a dead letter and logs it', async () => {
    const unreadable = {
      PK: 'STREAM#unreadable',
      SK: 'X',
      Entity: 'WebhookDelivery',
      Status: 'PENDING',
      QueuedAt: new Date().toISOString(),
    };
    const before = stream.deadLetters.length;
    const { lines } = await logsDuring(async () => {
      await documentClient().send(new PutCommand({ TableName: tableName(), Item: unreadable }));
      await stream.idle();
    }, 'ERROR');
    expect(stream.deadLetters.slice(before)).toEqual([
      {
        consumer: webhookSender.id,
        sequenceNumber: expect.any(String),
        error: expect.stringContaining('reported the record failed'),
        tries: webhookSender.retryAttempts + 1,
      },
    ]);
    expect(lines.filter((line) => line.message === 'Webhook delivery attempt failed')).toHaveLength(webhookSender.retryAttempts + 1);
    expect(lines.filter((line) => line.message === 'Dead letter: send-webhooks stream record')).toHaveLength(1);
  });
});

describe("the mapping's lanes", () => {
  const laneOfDelivery = (id: string) => {
    const key = webhookKeys.delivery(operatorId, id);
    return hashedLane(webhookSender, `${key.PK}|${key.SK}`);
  };
  /** A delivery ID whose item is hashed into `lane`, or out of it. */
  const idHashed = (wanted: (lane: number) => boolean) => {
    for (let tries = 0; ; tries += 1) {
      const id = `msg_lane_${tries}_${Date.now()}`;
      if (wanted(laneOfDelivery(id))) return id;
    }
  };

  it("hand a record behind its lane's held one, and the records of other lanes over meanwhile", async () => {
    const receiver = await startWebhookReceiver();
    receiver.answer('hold');
    try {
      await putEndpoint(
        webhookKeys.endpoint(operatorId, keys.holding),
        { OperatorID: operatorId, KeyID: keys.holding, Url: receiver.url('/held'), Secret: SECRET, CreatedAt: '' },
        undefined,
      );
      const held = await writeDelivery(keys.holding);
      const lane = laneOfDelivery(held.DeliveryID);
      const behind = await writeDelivery(
        keys.withoutEndpoint,
        new Date(),
        idHashed((other) => other === lane),
      );
      const beside = await writeDelivery(
        keys.withoutEndpoint,
        new Date(),
        idHashed((other) => other !== lane),
      );

      const read = stream.idle();
      await receiver.waitFor(1);
      for (let tries = 0; (await deliveryAt(beside)).Status === 'PENDING' && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await deliveryAt(beside)).toMatchObject({ Status: 'FAILED', Attempts: 1 });
      expect(await deliveryAt(behind)).toMatchObject({ Status: 'PENDING', Attempts: 0, QueuedAt: behind.QueuedAt });

      receiver.release(204);
      await read;
      expect(await deliveryAt(held)).toMatchObject({ Status: 'DELIVERED', Attempts: 1 });
      expect(await deliveryAt(behind)).toMatchObject({ Status: 'FAILED', Attempts: 1 });
    } finally {
      receiver.release(204);
      await receiver.stop();
    }
  });
});

describe('a table made anew', () => {
  it('is read from its new stream once the old one has closed, as when DynamoDB Local restarts in memory', async () => {
    const table = tableName();
    configure({ ...config(), tableName: 'ota-usage-stream-anew' });
    try {
      await ensureTable(attributeClient(), tableName());
      await stream.idle();
      await attributeClient().send(new DeleteTableCommand({ TableName: tableName() }));
      await ensureTable(attributeClient(), tableName());
      const delivery = await writeDelivery(keys.withoutEndpoint);
      // The first read finds the old stream's shard closed with its table; the next describes the table again and reads the new one.
      await stream.idle();
      expect((await deliveryAt(delivery)).Attempts).toBe(0);
      await stream.idle();
      expect(await deliveryAt(delivery)).toMatchObject({ Status: 'FAILED', Attempts: 1 });
    } finally {
      await attributeClient().send(new DeleteTableCommand({ TableName: tableName() }));
      configure({ ...config(), tableName: table });
    }
  });
});
