import { operatorPartition, type ItemKey } from './keys';

/* Webhooks: a partner key's one endpoint, the operator's usage endpoint, and each pending delivery in a partition of its own. */
export const endpoint = (operatorId: string, keyId: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#WEBHOOK`,
  SK: 'WEBHOOK',
});

/** The operator's own endpoint for its usage alerts. */
export const usageEndpoint = (operatorId: string): ItemKey => ({ PK: `${operatorPartition(operatorId)}#USAGE#WEBHOOK`, SK: 'WEBHOOK' });

export const delivery = (operatorId: string, deliveryId: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#WEBHOOK#${deliveryId}`,
  SK: 'DELIVERY',
});

/** A key's OCTo subscriptions, in one partition of the key's. */
export const subscription = (operatorId: string, keyId: string, subscriptionId: string): ItemKey => ({
  PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#SUBSCRIPTIONS`,
  SK: `SUBSCRIPTION#${subscriptionId}`,
});

export const subscriptionPrefix = (operatorId: string, keyId: string) => ({
  PK: `${operatorPartition(operatorId)}#APIKEY#${keyId}#SUBSCRIPTIONS`,
  SKPrefix: 'SUBSCRIPTION#',
});

/**
 * GSI1 entry of everyone who may hear of an operator's changes (an
 * endpoint, an OCTo subscription): the announcer lists them by operator.
 */
export const listener = (operatorId: string, kind: 'ENDPOINT' | 'SUBSCRIPTION', keyId: string, subscriptionId = '') => ({
  GSI1PK: `${operatorPartition(operatorId)}#LISTENERS`,
  GSI1SK: `${kind}#${keyId}#${subscriptionId}`,
});

export const listeners = (operatorId: string) => ({ GSI1PK: `${operatorPartition(operatorId)}#LISTENERS` });
