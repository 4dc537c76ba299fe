import { randomBytes } from 'node:crypto';
import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { documentClient, tableName } from '../../shared/db/client';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { revokePartnerKey } from '../../shared/webhooks/key-revocation';
import type { WebhookEndpointItem } from '../../shared/webhooks/model';
import { putEndpoint, queryPendingDeliveriesOf } from '../../shared/webhooks/repository';
import { MAX_REPLACED_SECRETS, SECRET_OVERLAP_MS } from '../../shared/webhooks/signing-secrets';
import { adminIn } from '../support/admin-cli';
import type { HttpClient } from '../support/fixtures';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';
import { withRegistrationsBefore } from '../support/registration-race';
import { streamRecords } from '../support/stream-records';
import type { ReceivedRequest } from '../support/webhook-receiver';
import { WEBHOOK, webhookWorld } from '../support/webhooks';

/**
 * Webhook signing secrets at rest and in rotation, through real HTTP, the
 * local host's KMS stand-in (real AES-GCM, the encryption context bound in)
 * and its table stream: no secret is kept, streamed, answered or logged in
 * clear; a ciphertext moved to another endpoint does not decrypt; a replaced
 * secret signs beside the new one for a day, then no more; removing the
 * endpoint or revoking its key ends every secret; endpoints kept from before
 * secrets were encrypted still sign, and are encrypted on registering again
 * or by the admin CLI. Receivers verify with the `standardwebhooks` package.
 */
const { world, clock, book, settle, operatorCancel, receivedAt } = webhookWorld('ota-usage-webhook-secrets-test');
const request: HttpClient = (...args) => world.request(...args);

interface Partner {
  key: string;
  keyId: string;
}

async function newPartner(): Promise<Partner> {
  const key = await world.operator.keyWith(['ota']);
  return { key, keyId: (await findActiveKey(key))!.KeyID };
}

/** Registers the partner's endpoint on the receiver at `path`; the secret the answer shows. */
async function register(partner: Partner, path: string): Promise<string> {
  const registered = await request('PUT', WEBHOOK, { key: partner.key, body: { Url: world.receiver.url(path) } });
  expect(registered.status).toBe(200);
  return registered.json.data.Secret;
}

const endpointKeyOf = (partner: Partner) => webhookKeys.endpoint(world.operator.operatorId, partner.keyId);

/** The endpoint's item as the table holds it. */
async function stored(partner: Partner): Promise<(WebhookEndpointItem & Record<string, unknown>) | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: endpointKeyOf(partner), ConsistentRead: true }),
  );
  return Item as (WebhookEndpointItem & Record<string, unknown>) | undefined;
}

/** Every item of this file's table. */
async function everyItem(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** The partner's next delivery: a booking it makes, cancelled by the operator, sent at the clock's time. */
async function deliveryTo(partner: Partner, path: string): Promise<ReceivedRequest & { headers: Record<string, string> }> {
  const before = receivedAt(path).length;
  await operatorCancel(await book(partner.key));
  await settle();
  const received = receivedAt(path);
  expect(received).toHaveLength(before + 1);
  return received[before] as ReceivedRequest & { headers: Record<string, string> };
}

/** The signature `secret` makes of the delivery, as its `webhook-signature` lists each. */
const signatureBy = (secret: string, delivery: ReceivedRequest & { headers: Record<string, string> }) =>
  new Webhook(secret).sign(delivery.headers['webhook-id'], new Date(Number(delivery.headers['webhook-timestamp']) * 1000), delivery.body);

const verifies = (secret: string, delivery: ReceivedRequest & { headers: Record<string, string> }) => {
  try {
    return (new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string }).type;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return `refused: ${error.message}`;
    throw error;
  }
};

/** A secret's forms a leak would show: as issued, and its bytes in base64. */
const clearForms = (secret: string) => [secret, secret.slice('whsec_'.length)];

describe('a signing secret at rest', () => {
  it('is kept only as KMS ciphertext: in no item, stream record, GET answer or log line, and the sender signs with it', async () => {
    clock.set(new Date());
    const partner = await newPartner();
    const { result: secret, lines } = await logsDuring(async () => {
      const issued = await register(partner, '/at-rest');
      expect(verifies(issued, await deliveryTo(partner, '/at-rest'))).toBe('booking.cancelled');
      return issued;
    });
    const item = await stored(partner);
    expect(item).toMatchObject({ EncryptedSecret: expect.stringMatching(/^[A-Za-z0-9+/]{40,}={0,2}$/) });
    expect(item).not.toHaveProperty('Secret');
    const records = await streamRecords();
    const endpointRecords = records.filter((record) => record.dynamodb?.Keys?.PK?.S === endpointKeyOf(partner).PK);
    expect(endpointRecords.length).toBeGreaterThan(0);
    expect(new Set(endpointRecords.map((record) => record.dynamodb?.NewImage?.EncryptedSecret?.S))).toEqual(
      new Set([item!.EncryptedSecret]),
    );
    const read = await request('GET', WEBHOOK, { key: partner.key });
    expect(read.status).toBe(200);
    const everywhere = {
      item: JSON.stringify(item),
      table: JSON.stringify(await everyItem()),
      stream: JSON.stringify(records),
      get: read.text,
      logs: JSON.stringify(lines),
    };
    expect(lines.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries(everywhere))
      for (const form of clearForms(secret)) expect({ where, clear: text.includes(form) }).toEqual({ where, clear: false });
  });

  it("is bound to its endpoint: moved to another partner's endpoint it does not decrypt, and nothing is sent or blamed on the receiver", async () => {
    clock.set(new Date());
    const [owner, other] = [await newPartner(), await newPartner()];
    const ownersSecret = await register(owner, '/moved-from');
    await register(other, '/moved-to');
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: endpointKeyOf(other),
        UpdateExpression: 'SET EncryptedSecret = :moved',
        ExpressionAttributeValues: { ':moved': (await stored(owner))!.EncryptedSecret },
      }),
    );
    const { lines } = await logsDuring(async () => {
      await operatorCancel(await book(other.key));
      await settle();
    }, 'ERROR');
    expect(receivedAt('/moved-to')).toEqual([]);
    const pending = await queryPendingDeliveriesOf(world.operator.operatorId, other.keyId);
    expect(pending).toEqual([
      expect.objectContaining({
        Attempts: 1,
        LastError: "the endpoint's signing secret could not be decrypted (InvalidCiphertextException)",
      }),
    ]);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'Webhook signing secret not decrypted', keyId: other.keyId }),
    ]);
    expect(await stored(other)).not.toHaveProperty('FailingSince');
    // The lane the attempt took before reading the secret is free again.
    expect(Object.keys((await stored(other))!).filter((name) => /^Lane\d+$/.test(name))).toEqual([]);
    expect(verifies(ownersSecret, await deliveryTo(owner, '/moved-from'))).toBe('booking.cancelled');
  });
});

describe('registering again', () => {
  it('keeps the replaced secret signing beside the new one, after it, until 24 hours after the rotation: a receiver with either verifies', async () => {
    const now = new Date();
    const partner = await newPartner();
    clock.set(new Date(now.getTime() - SECRET_OVERLAP_MS + 60_000));
    const replaced = await register(partner, '/overlap');
    const current = await register(partner, '/overlap');
    clock.set(now);
    const delivery = await deliveryTo(partner, '/overlap');
    expect(delivery.headers['webhook-signature']).toBe(`${signatureBy(current, delivery)} ${signatureBy(replaced, delivery)}`);
    expect([verifies(replaced, delivery), verifies(current, delivery)]).toEqual(['booking.cancelled', 'booking.cancelled']);
  });

  it('signs with the new secret alone once the overlap is over: the replaced one verifies nothing more', async () => {
    const now = new Date();
    const partner = await newPartner();
    clock.set(new Date(now.getTime() - SECRET_OVERLAP_MS));
    const replaced = await register(partner, '/overlap-over');
    const current = await register(partner, '/overlap-over');
    clock.set(now);
    const delivery = await deliveryTo(partner, '/overlap-over');
    expect(delivery.headers['webhook-signature']).toBe(signatureBy(current, delivery));
    expect([verifies(replaced, delivery), verifies(current, delivery)]).toEqual([
      'refused: No matching signature found',
      'booking.cancelled',
    ]);
  });

  it(`signs with at most the ${MAX_REPLACED_SECRETS} latest replaced secrets, however often it is registered`, async () => {
    clock.set(new Date());
    const partner = await newPartner();
    const secrets: string[] = [];
    for (let i = 0; i < MAX_REPLACED_SECRETS + 2; i += 1) secrets.push(await register(partner, '/often'));
    const delivery = await deliveryTo(partner, '/often');
    const newestFirst = [...secrets].reverse();
    expect(delivery.headers['webhook-signature']).toBe(
      newestFirst
        .slice(0, MAX_REPLACED_SECRETS + 1)
        .map((secret) => signatureBy(secret, delivery))
        .join(' '),
    );
    expect(newestFirst.map((secret) => verifies(secret, delivery))).toEqual([
      ...Array<string>(MAX_REPLACED_SECRETS + 1).fill('booking.cancelled'),
      'refused: No matching signature found',
    ]);
    expect((await stored(partner))!.PreviousSecrets).toHaveLength(MAX_REPLACED_SECRETS);
  });

  it('while another registration is written between its read and its write: both secrets answered sign, neither registration lost', async () => {
    clock.set(new Date());
    const partner = await newPartner();
    let first = '';
    const [second] = await withRegistrationsBefore(
      endpointKeyOf(partner).PK,
      (_, made) => made === 0,
      () => register(partner, '/interleaved'),
      async () => {
        first = await register(partner, '/interleaved');
      },
    );
    const delivery = await deliveryTo(partner, '/interleaved');
    expect(delivery.headers['webhook-signature']).toBe(`${signatureBy(first, delivery)} ${signatureBy(second, delivery)}`);
  });

  it('while other registrations keep being written before each of its writes: refused (409), changing nothing; theirs sign', async () => {
    clock.set(new Date());
    const partner = await newPartner();
    let refused: Awaited<ReturnType<HttpClient>> | undefined;
    const others = await withRegistrationsBefore(
      endpointKeyOf(partner).PK,
      (item) => item.Url === world.receiver.url('/lost'),
      () => register(partner, '/won'),
      async () => {
        refused = await request('PUT', WEBHOOK, { key: partner.key, body: { Url: world.receiver.url('/lost') } });
      },
    );
    expectProblem(refused!, 409, {
      detail: /^Other registrations of this endpoint kept being written while this one was; nothing was changed by it/,
    });
    expect(others).toHaveLength(8);
    expect((await stored(partner))!.Url).toBe(world.receiver.url('/won'));
    const delivery = await deliveryTo(partner, '/won');
    const newestFirst = [...others].reverse().slice(0, MAX_REPLACED_SECRETS + 1);
    expect(delivery.headers['webhook-signature']).toBe(newestFirst.map((secret) => signatureBy(secret, delivery)).join(' '));
  });
});

describe('every secret of an endpoint ends', () => {
  it('when the endpoint is removed: registered anew, it signs with its new secret alone', async () => {
    clock.set(new Date());
    const partner = await newPartner();
    const before = [await register(partner, '/removed'), await register(partner, '/removed')];
    expect((await request('DELETE', WEBHOOK, { key: partner.key })).status).toBe(204);
    const anew = await register(partner, '/removed');
    const delivery = await deliveryTo(partner, '/removed');
    expect(delivery.headers['webhook-signature']).toBe(signatureBy(anew, delivery));
    expect(before.map((secret) => verifies(secret, delivery))).toEqual([
      'refused: No matching signature found',
      'refused: No matching signature found',
    ]);
  });

  it('when its key is revoked', async () => {
    clock.set(new Date());
    const partner = await newPartner();
    await register(partner, '/revoked');
    await register(partner, '/revoked');
    expect((await stored(partner))!.PreviousSecrets).toHaveLength(1);
    await revokePartnerKey(world.operator.operatorId, partner.keyId, clock());
    expect(await stored(partner)).toBeUndefined();
  });
});

describe('an endpoint registered before secrets were encrypted', () => {
  /** An endpoint as it was written then: its secret in clear. */
  async function clearEndpoint(path: string): Promise<Partner & { secret: string }> {
    const partner = await newPartner();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const item = { OperatorID: world.operator.operatorId, KeyID: partner.keyId, Url: world.receiver.url(path), Secret: secret };
    expect(await putEndpoint(endpointKeyOf(partner), { ...item, CreatedAt: clock().toISOString() }, undefined)).toBe(true);
    return { ...partner, secret };
  }

  it('still signs with its secret in clear', async () => {
    clock.set(new Date());
    const partner = await clearEndpoint('/clear');
    const delivery = await deliveryTo(partner, '/clear');
    expect(delivery.headers['webhook-signature']).toBe(signatureBy(partner.secret, delivery));
  });

  it('registered again, keeps no secret in clear, and its old secret signs beside the new one for the overlap', async () => {
    clock.set(new Date());
    const partner = await clearEndpoint('/clear-again');
    const current = await register(partner, '/clear-again');
    const item = await stored(partner);
    expect(item).not.toHaveProperty('Secret');
    expect(item!.PreviousSecrets).toEqual([
      { EncryptedSecret: expect.any(String), ValidUntil: new Date(clock().getTime() + SECRET_OVERLAP_MS).toISOString() },
    ]);
    for (const form of clearForms(partner.secret)) expect(JSON.stringify(item)).not.toContain(form);
    const delivery = await deliveryTo(partner, '/clear-again');
    expect(delivery.headers['webhook-signature']).toBe(`${signatureBy(current, delivery)} ${signatureBy(partner.secret, delivery)}`);
  });

  it('is encrypted in place by the admin CLI (encrypt-webhook-secrets), once, and signs with the same secret', async () => {
    clock.set(new Date());
    const partner = await clearEndpoint('/clear-cli');
    const environment = { ...process.env, TABLE_NAME: tableName(), HOST: '127.0.0.1', PORT: new URL(world.host.url).port };
    const operator = world.operator.operatorId;
    const first = await adminIn(environment, 'encrypt-webhook-secrets', '--operator', operator);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(
      new RegExp(`^Read \\d+ webhook endpoint\\(s\\) of ${operator} in table ${tableName()} at .+; encrypted [1-9]\\d* secret\\(s\\)`),
    );
    const items = await everyItem();
    expect(items.filter((item) => item.Entity === 'WebhookEndpoint' && 'Secret' in item)).toEqual([]);
    for (const form of clearForms(partner.secret)) expect(JSON.stringify(items)).not.toContain(form);
    const delivery = await deliveryTo(partner, '/clear-cli');
    expect(delivery.headers['webhook-signature']).toBe(signatureBy(partner.secret, delivery));
    const again = await adminIn(environment, 'encrypt-webhook-secrets', '--operator', operator);
    expect(again.stdout).toMatch(/; encrypted 0 secret\(s\)/);
  });
});
