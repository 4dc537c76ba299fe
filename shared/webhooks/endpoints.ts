import { randomBytes } from 'node:crypto';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import type { IssuedWebhookEndpoint, WebhookEndpoint } from './schemas';
import { webhookKeys } from '../db/keys';
import { isMarkedFailing } from './endpoint-health';
import { eventTypesOf, USAGE_EVENT_TYPES, type WebhookEndpointItem, type WebhookEventType } from './model';
import { deleteEndpoint, getEndpoint, putEndpoint } from './repository';
import { webhookUrlProblem } from './targets';

/**
 * Webhook endpoints: a partner key's one endpoint (the events of the
 * bookings it made), and the operator's one endpoint for its usage alerts.
 * Registering again replaces the URL and issues a new secret (the old one
 * stops signing at once), so a leaked secret is rotated by registering
 * again; it also makes an endpoint marked failing take deliveries again.
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

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

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

/** Registers the owner's endpoint; a partner's for `EventTypes`, or for the default ones when it names none. */
export async function registerWebhook(
  owner: EndpointOwner,
  registration: { Url: string; EventTypes?: WebhookEventType[] },
  now: Date = config().clock(),
): Promise<IssuedWebhookEndpoint> {
  const problem = webhookUrlProblem(registration.Url, config());
  if (problem) throw new ValidationError(problem, { field: 'Url' });
  const item: WebhookEndpointItem = {
    OperatorID: owner.operatorId,
    ...(isUsageAlerts(owner) ? {} : { KeyID: owner.keyId }),
    Url: registration.Url,
    Secret: newSecret(),
    ...(registration.EventTypes ? { EventTypes: registration.EventTypes } : {}),
    CreatedAt: now.toISOString(),
  };
  await putEndpoint(endpointKey(owner), item);
  return { ...publicForm(item), Secret: item.Secret };
}

const noEndpoint = (owner: EndpointOwner) =>
  new NotFoundError(
    isUsageAlerts(owner)
      ? 'This operator has no usage webhook endpoint; register one with PUT'
      : 'This API key has no webhook endpoint; register one with PUT',
  );

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
