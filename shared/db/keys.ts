/**
 * Every key of the single table is built in shared/db and nowhere else: an
 * operator's own items (itself, its API keys, its products and timeslots)
 * here, each other entity's in its `*-keys.ts` beside this file. Each is
 * imported as a namespace (`import * as bookingKeys from '../db/booking-keys'`),
 * so that a function's bundle carries only the builders it calls. Entity
 * prefixes keep item types apart inside shared partitions.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

export const operatorPartition = (operatorId: string) => `OP#${operatorId}`;
export const activityPartition = (operatorId: string, activityId: string) => `OP#${operatorId}#ACT#${activityId}`;

export const operator = (operatorId: string): ItemKey => ({ PK: operatorPartition(operatorId), SK: 'OPERATOR' });

/** The authorizer's lookup: the SHA-256 of the presented secret is the key. */
export const apiKeyByHash = (secretHash: string): ItemKey => ({ PK: `APIKEY#${secretHash}`, SK: 'APIKEY' });

/** The operator's view of one of its keys, addressed by its public key ID. */
export const operatorApiKey = (operatorId: string, keyId: string): ItemKey => ({
  PK: operatorPartition(operatorId),
  SK: `APIKEY#${keyId}`,
});

export const operatorApiKeyPrefix = (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'APIKEY#' });

export const product = (operatorId: string, activityId: string): ItemKey => ({
  PK: operatorPartition(operatorId),
  SK: `PRODUCT#${activityId}`,
});

export const productPrefix = (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'PRODUCT#' });

/** GSI1 entry that resolves an operator's numeric ProductID to its product item. */
export const productIdIndex = (operatorId: string, productId: number) => ({
  GSI1PK: `${operatorPartition(operatorId)}#PRODUCTID#${productId}`,
  GSI1SK: 'PRODUCT',
});

export const timeslot = (operatorId: string, activityId: string, date: string, time: string): ItemKey => ({
  PK: activityPartition(operatorId, activityId),
  SK: `SLOT#${date}#${time}`,
});

/** The operator, activity, date and time a timeslot's key names (its inverse), or undefined for another key. */
export const timeslotOf = (key: ItemKey) => {
  const partition = /^OP#(.+)#ACT#([^#]+)$/.exec(key.PK);
  const sort = /^SLOT#(\d{4}-\d{2}-\d{2})#(\d{2}:\d{2})$/.exec(key.SK);
  return partition && sort ? { operatorId: partition[1], activityId: partition[2], date: sort[1], time: sort[2] } : undefined;
};

/** The operator and activity a product's key names (its inverse), or undefined for another key. */
export const productOf = (key: ItemKey) => {
  const partition = /^OP#(.+)$/.exec(key.PK);
  const sort = /^PRODUCT#([^#]+)$/.exec(key.SK);
  return partition && sort ? { operatorId: partition[1], activityId: sort[1] } : undefined;
};

/** Inclusive SK bounds covering every timeslot from the first date to the last date. */
export const timeslotRange = (operatorId: string, activityId: string, firstDate: string, lastDate: string) => ({
  PK: activityPartition(operatorId, activityId),
  SKFrom: `SLOT#${firstDate}#`,
  // '~' sorts after every character a time can contain, so the whole last day is included.
  SKTo: `SLOT#${lastDate}#~`,
});

/**
 * The bookings a cancellation of a timeslot (started at `startedAt`) set
 * out to cancel, beside its timeslot but outside the SLOT# range, so
 * availability reads never meet it.
 */
export const timeslotCancellation = (operatorId: string, activityId: string, date: string, time: string, startedAt: string): ItemKey => ({
  PK: activityPartition(operatorId, activityId),
  SK: `CANCELLATION#${date}#${time}#${startedAt}`,
});
