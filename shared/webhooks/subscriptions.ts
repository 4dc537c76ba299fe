import { randomUUID } from 'node:crypto';
import { config } from '../core/config';
import { NotFoundError, UnprocessableError, ValidationError } from '../core/errors';
import type { OctoNotificationType, SubscriptionItem } from './model';
import { deleteSubscription, getSubscription, putSubscription, querySubscriptions } from './repository';
import { webhookUrlProblem } from './targets';

/**
 * An OCTo reseller's notification subscriptions (docs.octo.travel, the
 * notifications capability): each names a URL, the notification types it
 * wants and the headers to send with each notification (its own
 * authentication, typically). A key may have several. The URL meets the
 * webhook endpoints' rule (targets.ts); the headers may not replace those
 * the delivery itself carries.
 */
export const MAX_SUBSCRIPTIONS_PER_KEY = 10;

/** Headers a delivery sets itself or that HTTP reserves to the connection: a subscription cannot set them. */
const RESERVED_HEADERS = new Set([
  'connection',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'user-agent',
  'webhook-id',
  'webhook-signature',
  'webhook-timestamp',
]);

interface Partner {
  operatorId: string;
  keyId: string;
}

export interface SubscriptionFields {
  Url?: string;
  NotificationTypes?: OctoNotificationType[];
  Headers?: Record<string, string>;
}

function checkFields(fields: SubscriptionFields): void {
  if (fields.Url !== undefined) {
    const problem = webhookUrlProblem(fields.Url, config());
    if (problem) throw new ValidationError(problem, { field: 'Url' });
  }
  const reserved = Object.keys(fields.Headers ?? {}).find((name) => RESERVED_HEADERS.has(name.toLowerCase()));
  if (reserved) throw new ValidationError(`must not set '${reserved}': every notification sets it itself`, { field: 'Headers' });
}

const noSubscription = (id: string) => new NotFoundError(`No subscription of this API key has the id '${id}'`);

export async function createSubscription(
  partner: Partner,
  fields: Required<Pick<SubscriptionFields, 'Url' | 'NotificationTypes'>> & SubscriptionFields,
  now: Date = config().clock(),
): Promise<SubscriptionItem> {
  checkFields(fields);
  if ((await querySubscriptions(partner.operatorId, partner.keyId)).length >= MAX_SUBSCRIPTIONS_PER_KEY) {
    throw new UnprocessableError(`This API key has ${MAX_SUBSCRIPTIONS_PER_KEY} subscriptions, the most it may have; delete one first`);
  }
  const item: SubscriptionItem = {
    SubscriptionID: randomUUID(),
    OperatorID: partner.operatorId,
    KeyID: partner.keyId,
    Url: fields.Url,
    NotificationTypes: fields.NotificationTypes,
    Headers: fields.Headers ?? {},
    CreatedAt: now.toISOString(),
    UpdatedAt: now.toISOString(),
  };
  await putSubscription(item, false);
  return item;
}

export async function readSubscription(partner: Partner, id: string): Promise<SubscriptionItem> {
  const item = await getSubscription(partner.operatorId, partner.keyId, id);
  if (!item) throw noSubscription(id);
  return item;
}

export const listSubscriptions = (partner: Partner): Promise<SubscriptionItem[]> => querySubscriptions(partner.operatorId, partner.keyId);

/** Replaces the fields given, keeps the others; a subscription deleted meanwhile is not made again. */
export async function updateSubscription(
  partner: Partner,
  id: string,
  fields: SubscriptionFields,
  now: Date = config().clock(),
): Promise<SubscriptionItem> {
  checkFields(fields);
  const current = await readSubscription(partner, id);
  const next: SubscriptionItem = {
    SubscriptionID: current.SubscriptionID,
    OperatorID: current.OperatorID,
    KeyID: current.KeyID,
    Url: fields.Url ?? current.Url,
    NotificationTypes: fields.NotificationTypes ?? current.NotificationTypes,
    Headers: fields.Headers ?? current.Headers,
    CreatedAt: current.CreatedAt,
    UpdatedAt: now.toISOString(),
  };
  if (!(await putSubscription(next, true))) throw noSubscription(id);
  return next;
}

/** Notifications still pending for it are given up (the sender finds no subscription). */
export async function removeSubscription(partner: Partner, id: string): Promise<SubscriptionItem> {
  const removed = await deleteSubscription(partner.operatorId, partner.keyId, id);
  if (!removed) throw noSubscription(id);
  return removed;
}
