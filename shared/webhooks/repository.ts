import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { batchGet } from '../db/batch';
import { queryDueItems } from '../db/due-work';
import * as dueKeys from '../db/due-keys';
import * as webhookKeys from '../db/webhook-keys';
import type { ItemKey } from '../db/keys';
import { queryAll } from '../db/query-pages';
import { GSI1, GSI3 } from '../db/table-design';
import type { DeliveryItem, SubscriptionItem, WebhookEndpointItem } from './model';

/** One function per webhook access pattern; see the README's access-pattern table. */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * An endpoint at its owner's key (a partner key's, or the operator's usage
 * endpoint: endpoints.ts), in place of the registration read before
 * (`replacing`: its secret tells it from any other; undefined when there was
 * none). False when another registration was written since. A partner's
 * endpoint is also one of the operator's listeners, who hear of its
 * changes; the operator's usage endpoint is not.
 */
export async function putEndpoint(
  key: ItemKey,
  endpoint: WebhookEndpointItem,
  replacing: WebhookEndpointItem | undefined,
): Promise<boolean> {
  const listener = endpoint.KeyID === undefined ? {} : webhookKeys.listener(endpoint.OperatorID, 'ENDPOINT', endpoint.KeyID);
  const [secret, seen] =
    replacing?.EncryptedSecret === undefined ? ['Secret', replacing?.Secret] : ['EncryptedSecret', replacing.EncryptedSecret];
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...key, ...listener, Entity: 'WebhookEndpoint', ...endpoint },
        ...(replacing
          ? {
              ConditionExpression: '#secret = :seen',
              ExpressionAttributeNames: { '#secret': secret },
              ExpressionAttributeValues: { ':seen': seen },
            }
          : { ConditionExpression: 'attribute_not_exists(PK)' }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function getEndpoint(key: ItemKey): Promise<WebhookEndpointItem | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item as WebhookEndpointItem | undefined;
}

/** Where an endpoint item is kept: a partner key's, or (without KeyID) the operator's usage endpoint. */
export const endpointKeyOf = (endpoint: Pick<WebhookEndpointItem, 'OperatorID' | 'KeyID'>): ItemKey =>
  endpoint.KeyID === undefined ? webhookKeys.usageEndpoint(endpoint.OperatorID) : webhookKeys.endpoint(endpoint.OperatorID, endpoint.KeyID);

/**
 * An update of an endpoint's state (its health, endpoint-health.ts; its
 * lanes, partner-lanes.ts): only on the registration it was read as (its
 * CreatedAt), so a registration made since starts afresh; false when the
 * condition no longer holds.
 */

export async function updateEndpoint(
  endpoint: WebhookEndpointItem,
  update: { expression: string; condition: string; values: Record<string, unknown> },
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: endpointKeyOf(endpoint),
        UpdateExpression: update.expression,
        ConditionExpression: `CreatedAt = :created AND ${update.condition}`,
        ExpressionAttributeValues: { ':created': endpoint.CreatedAt, ...update.values },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** True when there was an endpoint to delete. */
export async function deleteEndpoint(key: ItemKey): Promise<boolean> {
  const { Attributes } = await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: key, ReturnValues: 'ALL_OLD' }));
  return Attributes !== undefined;
}

/** The Put of a new delivery, for the transaction that makes the change it reports. */
export function deliveryPut(delivery: DeliveryItem): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID),
        ...dueKeys.webhookAttempt(delivery.NextAttemptAt as string, delivery.DeliveryID),
        Entity: 'WebhookDelivery',
        ...delivery,
      },
      // Once written a delivery is never written again: its payload and webhook-id stay those of its first write.
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/**
 * Writes a delivery whose ID is derived from what it announces (shared/changes):
 * a second write of the same delivery (a record handed over twice, a flush
 * retried) finds it there and changes nothing. False when it was there.
 */
export async function putDeliveryOnce(delivery: DeliveryItem): Promise<boolean> {
  try {
    await documentClient().send(new PutCommand(deliveryPut(delivery).Put as ConstructorParameters<typeof PutCommand>[0]));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Deliveries by ID (consistent); those gone (settled a week ago) are left out. */
export async function getDeliveries(operatorId: string, deliveryIds: readonly string[]): Promise<DeliveryItem[]> {
  const items: DeliveryItem[] = [];
  await batchGet(
    'Reading deliveries',
    deliveryIds.map((id) => webhookKeys.delivery(operatorId, id)),
    {},
    (item) => items.push(item as unknown as DeliveryItem),
  );
  return items;
}

/** The Update of a delivery's payload, for an erasure's transaction: only while the delivery is kept. */
export const payloadUpdate = (delivery: DeliveryItem, payload: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID),
    UpdateExpression: 'SET Payload = :payload',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':payload': payload },
  },
});

export async function getDelivery(operatorId: string, deliveryId: string): Promise<DeliveryItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(operatorId, deliveryId), ConsistentRead: true }),
  );
  return Item as DeliveryItem | undefined;
}

/** Pending deliveries whose next attempt is due at `nowIso` or before, oldest first. */
export const queryDueDeliveries = (nowIso: string, limit: number): Promise<DeliveryItem[]> =>
  queryDueItems<DeliveryItem>('WEBHOOK', nowIso, limit);

/**
 * Every pending delivery to one partner key: the due index holds pending
 * deliveries only (of every operator), read to its end and filtered to the
 * key's; only a key's revocation asks, so no index of its own is kept for it.
 */
export async function queryPendingDeliveriesOf(operatorId: string, keyId: string): Promise<DeliveryItem[]> {
  return queryAll<DeliveryItem>({
    TableName: tableName(),
    IndexName: GSI3,
    KeyConditionExpression: 'GSI3PK = :pk',
    FilterExpression: 'OperatorID = :operator AND KeyID = :key',
    ExpressionAttributeValues: { ':pk': dueKeys.pending('WEBHOOK').GSI3PK, ':operator': operatorId, ':key': keyId },
  });
}

/** An update of a delivery under its condition; false when the condition no longer holds. */
async function updateDelivery(
  delivery: DeliveryItem,
  update: { expression: string; condition: string; values: Record<string, unknown> },
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID),
        UpdateExpression: update.expression,
        ConditionExpression: `#status = :pending AND ${update.condition}`,
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: { ':pending': 'PENDING', ...update.values },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Queues an attempt of a pending delivery that is due: sets QueuedAt (the
 * write the stream hands to the sender) and moves the next attempt a lease
 * ahead. False when it is no longer pending and due as read (another sweep got there first).
 */
export const queueAttempt = (delivery: DeliveryItem, queuedAt: string, leaseEnd: string): Promise<boolean> =>
  updateDelivery(delivery, {
    expression: 'SET QueuedAt = :queued, NextAttemptAt = :next, GSI3SK = :sk',
    condition: 'NextAttemptAt = :seen',
    values: {
      ':queued': queuedAt,
      ':next': leaseEnd,
      ':sk': dueKeys.webhookAttempt(leaseEnd, delivery.DeliveryID).GSI3SK,
      ':seen': delivery.NextAttemptAt,
    },
  });

/**
 * Records a failed attempt of the queueing at `queuedAt` and when to try
 * again. False when that queueing is no longer the delivery's (a later one,
 * or it was settled meanwhile).
 */
export const rescheduleDelivery = (
  delivery: DeliveryItem,
  queuedAt: string,
  outcome: { next: string; attempts: number; lastError: string },
): Promise<boolean> =>
  updateDelivery(delivery, {
    expression: 'SET NextAttemptAt = :next, GSI3SK = :sk, Attempts = :attempts, LastError = :error REMOVE QueuedAt',
    condition: 'QueuedAt = :queued',
    values: {
      ':next': outcome.next,
      ':sk': dueKeys.webhookAttempt(outcome.next, delivery.DeliveryID).GSI3SK,
      ':attempts': outcome.attempts,
      ':error': outcome.lastError,
      ':queued': queuedAt,
    },
  });

/**
 * Puts off the attempt queued at `queuedAt` to `next`, counting no attempt:
 * the retry sweep queues it again once due. False when that queueing is no
 * longer the delivery's.
 */
export const deferDelivery = (delivery: DeliveryItem, queuedAt: string, next: string): Promise<boolean> =>
  updateDelivery(delivery, {
    expression: 'SET NextAttemptAt = :next, GSI3SK = :sk REMOVE QueuedAt',
    condition: 'QueuedAt = :queued',
    values: { ':next': next, ':sk': dueKeys.webhookAttempt(next, delivery.DeliveryID).GSI3SK, ':queued': queuedAt },
  });

/**
 * Gives up a pending delivery whatever attempt is queued: FAILED with the
 * reason, out of the due index, kept a while for inspection. An attempt in
 * flight then finds it no longer pending and records nothing. False when it
 * was settled meanwhile.
 */
export const abandonDelivery = (delivery: DeliveryItem, reason: string, expiresAt: number): Promise<boolean> =>
  updateDelivery(delivery, {
    expression: 'SET #status = :failed, LastError = :error, ExpiresAt = :expires REMOVE QueuedAt, NextAttemptAt, GSI3PK, GSI3SK',
    condition: 'attribute_exists(DeliveryID)',
    values: { ':failed': 'FAILED', ':error': reason, ':expires': expiresAt },
  });

/**
 * Ends a pending delivery, after the attempt queued at `queuedAt`, as
 * DELIVERED or FAILED: it leaves the due index and is kept a while for inspection.
 */
export const settleDelivery = (
  delivery: DeliveryItem,
  queuedAt: string,
  outcome: { status: 'DELIVERED' | 'FAILED'; at: string; attempts: number; lastError?: string; expiresAt: number },
): Promise<boolean> =>
  updateDelivery(delivery, {
    expression: `SET #status = :status, Attempts = :attempts, ExpiresAt = :expires${
      outcome.status === 'DELIVERED' ? ', DeliveredAt = :at' : ''
    }${outcome.lastError ? ', LastError = :error' : ''} REMOVE QueuedAt, NextAttemptAt, GSI3PK, GSI3SK`,
    condition: 'QueuedAt = :queued',
    values: {
      ':status': outcome.status,
      ':attempts': outcome.attempts,
      ':expires': outcome.expiresAt,
      ':queued': queuedAt,
      ...(outcome.status === 'DELIVERED' ? { ':at': outcome.at } : {}),
      ...(outcome.lastError ? { ':error': outcome.lastError } : {}),
    },
  });

/** Everyone who may hear of an operator's changes: its partners' endpoints and OCTo subscriptions (GSI1, eventually consistent). */
export async function queryListeners(operatorId: string): Promise<(WebhookEndpointItem | SubscriptionItem)[]> {
  return queryAll<WebhookEndpointItem | SubscriptionItem>({
    TableName: tableName(),
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': webhookKeys.listeners(operatorId).GSI1PK },
  });
}

const subscriptionItem = (subscription: SubscriptionItem) => ({
  ...webhookKeys.subscription(subscription.OperatorID, subscription.KeyID, subscription.SubscriptionID),
  ...webhookKeys.listener(subscription.OperatorID, 'SUBSCRIPTION', subscription.KeyID, subscription.SubscriptionID),
  Entity: 'OctoSubscription',
  ...subscription,
});

/** Writes a new subscription, or replaces one that exists (`replace`); false when that condition fails. */
export async function putSubscription(subscription: SubscriptionItem, replace: boolean): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: subscriptionItem(subscription),
        ConditionExpression: replace ? 'attribute_exists(PK)' : 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export async function getSubscription(operatorId: string, keyId: string, subscriptionId: string): Promise<SubscriptionItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.subscription(operatorId, keyId, subscriptionId), ConsistentRead: true }),
  );
  return Item as SubscriptionItem | undefined;
}

/** A key's subscriptions, oldest first (consistent: one created a moment ago is listed). */
export async function querySubscriptions(operatorId: string, keyId: string): Promise<SubscriptionItem[]> {
  const { PK, SKPrefix } = webhookKeys.subscriptionPrefix(operatorId, keyId);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ConsistentRead: true,
    }),
  );
  return ((Items ?? []) as SubscriptionItem[]).sort((a, b) => a.CreatedAt.localeCompare(b.CreatedAt));
}

/** Removes a subscription; the removed item, or undefined when there was none. */
export async function deleteSubscription(operatorId: string, keyId: string, subscriptionId: string): Promise<SubscriptionItem | undefined> {
  const { Attributes } = await documentClient().send(
    new DeleteCommand({
      TableName: tableName(),
      Key: webhookKeys.subscription(operatorId, keyId, subscriptionId),
      ReturnValues: 'ALL_OLD',
    }),
  );
  return Attributes as SubscriptionItem | undefined;
}
