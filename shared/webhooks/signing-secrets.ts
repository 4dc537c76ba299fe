import { randomBytes } from 'node:crypto';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { awsClient } from '../core/aws-client';
import { config } from '../core/config';
import { timedCalls } from '../core/observability';
import type { ReplacedSecret, WebhookEndpointItem } from './model';

/**
 * Webhook signing secrets at rest: each is encrypted with the service's KMS
 * key (SIGNING_SECRETS_KEY_ARN) before it is written, so the table, its
 * stream, its backups and every function that reads an endpoint see only
 * ciphertext. The functions that issue secrets may only encrypt; the sender
 * alone may decrypt (lib/aws). A secret is small enough for KMS to encrypt
 * directly (it takes 4 KB), so no data key is needed. Each ciphertext is
 * bound to its endpoint by the encryption context (the operator and the
 * endpoint): moved to another endpoint's item, it does not decrypt.
 *
 * Registering again rotates: the new secret signs at once, and the one it
 * replaces still signs beside it for SECRET_OVERLAP_MS, so a receiver has a
 * day to deploy the new one (Standard Webhooks carries several signatures).
 */

/** How long a replaced secret still signs deliveries, beside the new one (as Svix's rotation keeps the old one). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Replaced secrets kept at once: registering again and again must not lengthen every delivery's signatures without end. */
export const MAX_REPLACED_SECRETS = 3;

/** `whsec_` and the base64 of 32 random bytes, as Standard Webhooks spells secrets. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

// Pure: a function that imports this module without encrypting or decrypting carries no KMS client.
const kms = /* @__PURE__ */ awsClient((options) => {
  const client = new KMSClient(options);
  timedCalls(client, 'KMS');
  return client;
});

function keyId(): string {
  const key = config().signingSecretsKey;
  if (!key) throw new Error('No KMS key for webhook signing secrets is configured (SIGNING_SECRETS_KEY_ARN)');
  return key;
}

type EndpointOfSecret = Pick<WebhookEndpointItem, 'OperatorID' | 'KeyID'>;

/** What a ciphertext is bound to: the operator, and which of its endpoints (a partner key's, or its own for usage alerts). */
const contextOf = (endpoint: EndpointOfSecret): Record<string, string> => ({
  OperatorID: endpoint.OperatorID,
  Endpoint: endpoint.KeyID === undefined ? 'usage-alerts' : `partner-key:${endpoint.KeyID}`,
});

/** The secret, encrypted for `endpoint`: the base64 of KMS's ciphertext. */
export async function encryptSecret(secret: string, endpoint: EndpointOfSecret): Promise<string> {
  const { CiphertextBlob } = await kms().send(
    new EncryptCommand({ KeyId: keyId(), Plaintext: Buffer.from(secret, 'utf8'), EncryptionContext: contextOf(endpoint) }),
  );
  return Buffer.from(CiphertextBlob as Uint8Array).toString('base64');
}

/**
 * Secrets decrypted by this process, by endpoint and ciphertext: the sender
 * signs many deliveries to one endpoint, and asks KMS once. Only what was
 * read from an endpoint's item is looked up, so a removed endpoint's secret
 * is never used again; the oldest are dropped beyond CACHED_SECRETS.
 */
const decrypted = new Map<string, string>();
const CACHED_SECRETS = 1000;

async function decryptSecret(encrypted: string, endpoint: EndpointOfSecret): Promise<string> {
  const context = contextOf(endpoint);
  const cacheKey = `${context.OperatorID}\n${context.Endpoint}\n${encrypted}`;
  const cached = decrypted.get(cacheKey);
  if (cached !== undefined) return cached;
  const { Plaintext } = await kms().send(
    new DecryptCommand({ KeyId: keyId(), CiphertextBlob: Buffer.from(encrypted, 'base64'), EncryptionContext: context }),
  );
  const secret = Buffer.from(Plaintext as Uint8Array).toString('utf8');
  decrypted.set(cacheKey, secret);
  if (decrypted.size > CACHED_SECRETS) decrypted.delete(decrypted.keys().next().value as string);
  return secret;
}

const stillValid = (replaced: ReplacedSecret, now: Date) => Date.parse(replaced.ValidUntil) > now.getTime();

/**
 * The replaced secrets a new registration keeps: the one it replaces (a
 * secret written in clear before secrets were encrypted is encrypted now),
 * valid for the overlap from now, then those still valid, newest first.
 */
export async function secretsReplacedBy(current: WebhookEndpointItem | undefined, now: Date): Promise<ReplacedSecret[]> {
  if (!current) return [];
  const replaced = current.EncryptedSecret ?? (await encryptSecret(current.Secret as string, current));
  const validUntil = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString();
  const kept = (current.PreviousSecrets ?? []).filter((previous) => stillValid(previous, now));
  return [{ EncryptedSecret: replaced, ValidUntil: validUntil }, ...kept].slice(0, MAX_REPLACED_SECRETS);
}

/** The secrets a delivery is signed with at `now`: the endpoint's own first, then each replaced one still in its overlap. */
export async function signingSecrets(endpoint: WebhookEndpointItem, now: Date): Promise<string[]> {
  const current = endpoint.EncryptedSecret === undefined ? (endpoint.Secret as string) : decryptSecret(endpoint.EncryptedSecret, endpoint);
  const replaced = (endpoint.PreviousSecrets ?? [])
    .filter((previous) => stillValid(previous, now))
    .map((previous) => decryptSecret(previous.EncryptedSecret, endpoint));
  return Promise.all([current, ...replaced]);
}
