import { randomBytes } from 'node:crypto';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import type { IssuedWebhookEndpoint, WebhookEndpoint } from './schemas';
import { eventTypesOf, type WebhookEndpointItem, type WebhookEventType } from './model';
import { deleteEndpoint, getEndpoint, putEndpoint } from './repository';
import { webhookUrlProblem } from './targets';

/**
 * A partner key's webhook endpoint: one per key. Registering again replaces
 * the URL and issues a new secret (the old one stops signing at once), so a
 * leaked secret is rotated by registering again.
 */

/** Who registers: the partner key, of its operator. */
export interface PartnerKey {
  operatorId: string;
  keyId: string;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const publicForm = (item: WebhookEndpointItem): WebhookEndpoint => ({
  Url: item.Url,
  EventTypes: [...eventTypesOf(item)],
  CreatedAt: item.CreatedAt,
});

/** Registers the key's endpoint for `eventTypes`, or for the default ones when the partner names none. */
export async function registerWebhook(
  partner: PartnerKey,
  registration: { Url: string; EventTypes?: WebhookEventType[] },
  now: Date = config().clock(),
): Promise<IssuedWebhookEndpoint> {
  const problem = webhookUrlProblem(registration.Url, config());
  if (problem) throw new ValidationError(problem, { field: 'Url' });
  const item: WebhookEndpointItem = {
    OperatorID: partner.operatorId,
    KeyID: partner.keyId,
    Url: registration.Url,
    Secret: newSecret(),
    ...(registration.EventTypes ? { EventTypes: registration.EventTypes } : {}),
    CreatedAt: now.toISOString(),
  };
  await putEndpoint(item);
  return { ...publicForm(item), Secret: item.Secret };
}

const noEndpoint = () => new NotFoundError('This API key has no webhook endpoint; register one with PUT');

export async function readWebhook(partner: PartnerKey): Promise<WebhookEndpoint> {
  const item = await getEndpoint(partner.operatorId, partner.keyId);
  if (!item) throw noEndpoint();
  return publicForm(item);
}

/** Deliveries still pending for a removed endpoint are given up. */
export async function removeWebhook(partner: PartnerKey): Promise<void> {
  if (!(await deleteEndpoint(partner.operatorId, partner.keyId))) throw noEndpoint();
}
