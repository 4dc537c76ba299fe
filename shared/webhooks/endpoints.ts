import { listApiKeys } from '../accounts/api-keys';
import { config } from '../core/config';
import { RETRY, retrying } from '../core/retry';
import { ConflictError, ValidationError } from '../core/errors';
import type { IssuedWebhookEndpoint, WebhookEndpoint } from './schemas';
import * as webhookKeys from '../db/webhook-keys';
import { isMarkedFailing } from './endpoint-health';
import { NoWebhookEndpointError } from './errors';
import { eventTypesOf, USAGE_EVENT_TYPES, type WebhookEndpointItem, type WebhookEventType } from './model';
import { deleteEndpoint, getEndpoint, putEndpoint, updateEndpoint } from './repository';
import { encryptSecret, newSecret, secretsReplacedBy } from './signing-secrets';
import { webhookUrlProblem } from './targets';

/**
 * Webhook endpoints: a partner key's one endpoint (the events of the
 * bookings it made), and the operator's one endpoint for its usage alerts.
 * Registering again replaces the URL and issues a new secret, so a leaked
 * secret is rotated by registering again: the one it replaces still signs
 * beside it for a day (signing-secrets.ts), and removing the endpoint (or
 * revoking its key) ends every secret at once. Registering again also makes
 * an endpoint marked failing take deliveries again.
 */

/** A partner key, of its operator. */
export interface PartnerKey {
  operatorId: string;
  keyId: string;
}

/** The operator, as the receiver of its usage alerts. */
export interface UsageAlertsOwner {
  operatorId: string;
  usageAlerts: true;
}

export type EndpointOwner = PartnerKey | UsageAlertsOwner;

export const usageAlertsOwner = (operatorId: string): UsageAlertsOwner => ({ operatorId, usageAlerts: true });

const isUsageAlerts = (owner: EndpointOwner): owner is UsageAlertsOwner => 'usageAlerts' in owner;

/** Where an owner's endpoint is kept. */
export const endpointKey = (owner: EndpointOwner) =>
  isUsageAlerts(owner) ? webhookKeys.usageEndpoint(owner.operatorId) : webhookKeys.endpoint(owner.operatorId, owner.keyId);

/**
 * The endpoint as its owner sees it: where, the events it receives (a
 * partner's those it chose, the operator's usage endpoint its usage events),
 * since when, and whether it is failing (endpoint-health.ts); never the secret.
 */
const publicForm = (item: WebhookEndpointItem): WebhookEndpoint => ({
  Url: item.Url,
  EventTypes: item.KeyID === undefined ? [...USAGE_EVENT_TYPES] : [...eventTypesOf(item)],
  CreatedAt: item.CreatedAt,
  Status: isMarkedFailing(item) ? 'FAILING' : 'ACTIVE',
  ...(item.FailingSince ? { FailingSince: item.FailingSince } : {}),
  ...(item.MarkedFailingAt ? { MarkedFailingAt: item.MarkedFailingAt } : {}),
});

/** Registrations of one endpoint at the same moment are written one after the other; one that loses this often is refused (409). */
const REGISTRATION_ATTEMPTS = 8;

/**
 * Registers the owner's endpoint; a partner's for `EventTypes`, or for the
 * default ones when it names none. The secret is encrypted before anything
 * is written; a registration written meanwhile is read again, so that each
 * secret answered is either the endpoint's or one it replaced.
 */
export async function registerWebhook(
  owner: EndpointOwner,
  registration: { Url: string; EventTypes?: WebhookEventType[] },
  now: Date = config().clock(),
): Promise<IssuedWebhookEndpoint> {
  const problem = webhookUrlProblem(registration.Url, config());
  if (problem) throw new ValidationError(problem, { field: 'Url' });
  const fields = {
    OperatorID: owner.operatorId,
    ...(isUsageAlerts(owner) ? {} : { KeyID: owner.keyId }),
    Url: registration.Url,
    ...(registration.EventTypes ? { EventTypes: registration.EventTypes } : {}),
    CreatedAt: now.toISOString(),
  };
  const secret = newSecret();
  const encrypted = await encryptSecret(secret, fields);
  const key = endpointKey(owner);
  const item = await retrying(
    'Registering a webhook endpoint',
    async (attempt) => {
      const current = await getEndpoint(key);
      const replaced = await secretsReplacedBy(current, now);
      const next: WebhookEndpointItem = {
        ...fields,
        EncryptedSecret: encrypted,
        ...(replaced.length ? { PreviousSecrets: replaced } : {}),
      };
      if (await putEndpoint(key, next, current)) return next;
      return attempt + 1 < REGISTRATION_ATTEMPTS ? RETRY : undefined;
    },
    { attempts: REGISTRATION_ATTEMPTS },
  );
  if (!item) {
    throw new ConflictError(
      'Other registrations of this endpoint kept being written while this one was; nothing was changed by it: send it again',
    );
  }
  return { ...publicForm(item), Secret: secret };
}

const noEndpoint = (owner: EndpointOwner) => NoWebhookEndpointError.of(isUsageAlerts(owner));

/** An owner's endpoint as it sees it, if it has one: for its GET, and the operator's `list-keys`. */
export async function webhookOf(owner: EndpointOwner): Promise<WebhookEndpoint | undefined> {
  const item = await getEndpoint(endpointKey(owner));
  return item && publicForm(item);
}

export async function readWebhook(owner: EndpointOwner): Promise<WebhookEndpoint> {
  const endpoint = await webhookOf(owner);
  if (!endpoint) throw noEndpoint(owner);
  return endpoint;
}

/** Deliveries still pending for a removed endpoint are given up. */
export async function removeWebhook(owner: EndpointOwner): Promise<void> {
  if (!(await deleteEndpoint(endpointKey(owner)))) throw noEndpoint(owner);
}

/**
 * Once, for endpoints registered before secrets were encrypted (the admin
 * CLI's encrypt-webhook-secrets): each secret of the operator's endpoints
 * still kept in clear is encrypted in place; until then the sender signs
 * with it as it is. Safe to run again, and while the service runs: an
 * endpoint registered meanwhile is left as its registration wrote it.
 */
export async function encryptClearSecrets(operatorId: string): Promise<{ endpoints: number; encrypted: number }> {
  const keys = await listApiKeys(operatorId);
  const owners: EndpointOwner[] = [usageAlertsOwner(operatorId), ...keys.map((key) => ({ operatorId, keyId: key.KeyID }))];
  let [endpoints, encrypted] = [0, 0];
  for (const owner of owners) {
    const item = await getEndpoint(endpointKey(owner));
    if (!item) continue;
    endpoints += 1;
    if (item.Secret === undefined || item.EncryptedSecret !== undefined) continue;
    const written = await updateEndpoint(item, {
      expression: 'SET EncryptedSecret = :encrypted REMOVE Secret',
      condition: 'Secret = :clear',
      values: { ':encrypted': await encryptSecret(item.Secret, item), ':clear': item.Secret },
    });
    if (written) encrypted += 1;
  }
  return { endpoints, encrypted };
}
