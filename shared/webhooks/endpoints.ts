import { randomBytes } from 'node:crypto';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import type { IssuedWebhookEndpoint, WebhookEndpoint } from './schemas';
import { isMarkedFailing } from './endpoint-health';
import type { WebhookEndpointItem } from './model';
import { deleteEndpoint, getEndpoint, putEndpoint } from './repository';
import { webhookUrlProblem } from './targets';

/**
 * A partner key's webhook endpoint: one per key. Registering again replaces
 * the URL and issues a new secret (the old one stops signing at once), so a
 * leaked secret is rotated by registering again; it also makes an endpoint
 * marked failing take deliveries again.
 */

/** Who registers: the partner key, of its operator. */
export interface PartnerKey {
  operatorId: string;
  keyId: string;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The endpoint as its partner sees it: where, since when, and whether it is failing (endpoint-health.ts); never the secret. */
const publicForm = (item: WebhookEndpointItem): WebhookEndpoint => ({
  Url: item.Url,
  CreatedAt: item.CreatedAt,
  Status: isMarkedFailing(item) ? 'FAILING' : 'ACTIVE',
  ...(item.FailingSince ? { FailingSince: item.FailingSince } : {}),
  ...(item.MarkedFailingAt ? { MarkedFailingAt: item.MarkedFailingAt } : {}),
});

export async function registerWebhook(partner: PartnerKey, url: string, now: Date = config().clock()): Promise<IssuedWebhookEndpoint> {
  const problem = webhookUrlProblem(url, config());
  if (problem) throw new ValidationError(problem, { field: 'Url' });
  const item: WebhookEndpointItem = {
    OperatorID: partner.operatorId,
    KeyID: partner.keyId,
    Url: url,
    Secret: newSecret(),
    CreatedAt: now.toISOString(),
  };
  await putEndpoint(item);
  return { ...publicForm(item), Secret: item.Secret };
}

const noEndpoint = () => new NotFoundError('This API key has no webhook endpoint; register one with PUT');

/** A key's endpoint as its partner sees it, if it has one: for the partner's GET, and the operator's `list-keys`. */
export async function webhookOf(partner: PartnerKey): Promise<WebhookEndpoint | undefined> {
  const item = await getEndpoint(partner.operatorId, partner.keyId);
  return item && publicForm(item);
}

export async function readWebhook(partner: PartnerKey): Promise<WebhookEndpoint> {
  const endpoint = await webhookOf(partner);
  if (!endpoint) throw noEndpoint();
  return endpoint;
}

/** Deliveries still pending for a removed endpoint are given up. */
export async function removeWebhook(partner: PartnerKey): Promise<void> {
  if (!(await deleteEndpoint(partner.operatorId, partner.keyId))) throw noEndpoint();
}
