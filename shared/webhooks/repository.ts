import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { queryDueItems } from '../db/due-work';
import { dueKeys, webhookKeys } from '../db/keys';
import type { DeliveryItem, WebhookEndpointItem } from './model';

/** One function per webhook access pattern; see the README's access-pattern table. */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export async function putEndpoint(endpoint: WebhookEndpointItem): Promise<void> {
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...webhookKeys.endpoint(endpoint.OperatorID, endpoint.KeyID), Entity: 'WebhookEndpoint', ...endpoint },
    }),
  );
}

export async function getEndpoint(operatorId: string, keyId: string): Promise<WebhookEndpointItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.endpoint(operatorId, keyId), ConsistentRead: true }),
  );
  return Item as WebhookEndpointItem | undefined;
}

/** True when there was an endpoint to delete. */
export async function deleteEndpoint(operatorId: string, keyId: string): Promise<boolean> {
  const { Attributes } = await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: webhookKeys.endpoint(operatorId, keyId), ReturnValues: 'ALL_OLD' }),
  );
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
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export async function getDelivery(operatorId: string, deliveryId: string): Promise<DeliveryItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(operatorId, deliveryId), ConsistentRead: true }),
  );
  return Item as DeliveryItem | undefined;
}

/** Pending deliveries whose next attempt is due at `nowIso` or before, oldest first. */
export const queryDueDeliveries = (nowIso: string, limit: number): Promise<DeliveryItem[]> =>
  queryDueItems<DeliveryItem>('WEBHOOK', nowIso, limit);

const conditionFailed = (error: unknown) => error instanceof ConditionalCheckFailedException;

/**
 * Moves a pending delivery's next attempt from `seen` to `next`; false when
 * it is no longer pending at `seen` (another sweep or attempt got there first).
 */
export async function rescheduleDelivery(
  delivery: DeliveryItem,
  seen: string,
  next: string,
  attempts = delivery.Attempts,
  lastError?: string,
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID),
        UpdateExpression: `SET NextAttemptAt = :next, GSI3SK = :sk, Attempts = :attempts${lastError ? ', LastError = :error' : ''}`,
        ConditionExpression: '#status = :pending AND NextAttemptAt = :seen',
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: {
          ':next': next,
          ':sk': dueKeys.webhookAttempt(next, delivery.DeliveryID).GSI3SK,
          ':attempts': attempts,
          ':pending': 'PENDING',
          ':seen': seen,
          ...(lastError ? { ':error': lastError } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}

/** Ends a pending delivery as DELIVERED or FAILED: it leaves the due index and is kept a while for inspection. */
export async function settleDelivery(
  delivery: DeliveryItem,
  outcome: { status: 'DELIVERED' | 'FAILED'; at: string; attempts: number; lastError?: string; expiresAt: number },
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.delivery(delivery.OperatorID, delivery.DeliveryID),
        UpdateExpression: `SET #status = :status, Attempts = :attempts, ExpiresAt = :expires${
          outcome.status === 'DELIVERED' ? ', DeliveredAt = :at' : ''
        }${outcome.lastError ? ', LastError = :error' : ''} REMOVE NextAttemptAt, GSI3PK, GSI3SK`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'Status' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':attempts': outcome.attempts,
          ':expires': outcome.expiresAt,
          ':pending': 'PENDING',
          ...(outcome.status === 'DELIVERED' ? { ':at': outcome.at } : {}),
          ...(outcome.lastError ? { ':error': outcome.lastError } : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (conditionFailed(error)) return false;
    throw error;
  }
}
