/**
 * Every key of the single table is built here and nowhere else.
 * Entity prefixes keep item types apart inside shared partitions.
 */
export interface ItemKey {
  PK: string;
  SK: string;
}

const operatorPartition = (operatorId: string) => `OP#${operatorId}`;
const activityPartition = (operatorId: string, activityId: string) => `OP#${operatorId}#ACT#${activityId}`;

export const keys = {
  operator: (operatorId: string): ItemKey => ({ PK: operatorPartition(operatorId), SK: 'OPERATOR' }),

  /** The authorizer's lookup: the SHA-256 of the presented secret is the key. */
  apiKeyByHash: (secretHash: string): ItemKey => ({ PK: `APIKEY#${secretHash}`, SK: 'APIKEY' }),
  /** The operator's view of one of its keys, addressed by its public key ID. */
  operatorApiKey: (operatorId: string, keyId: string): ItemKey => ({
    PK: operatorPartition(operatorId),
    SK: `APIKEY#${keyId}`,
  }),
  operatorApiKeyPrefix: (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'APIKEY#' }),

  product: (operatorId: string, activityId: string): ItemKey => ({
    PK: operatorPartition(operatorId),
    SK: `PRODUCT#${activityId}`,
  }),
  productPrefix: (operatorId: string) => ({ PK: operatorPartition(operatorId), SKPrefix: 'PRODUCT#' }),
  /** GSI1 entry that resolves an operator's numeric ProductID to its product item. */
  productIdIndex: (operatorId: string, productId: number) => ({
    GSI1PK: `${operatorPartition(operatorId)}#PRODUCTID#${productId}`,
    GSI1SK: 'PRODUCT',
  }),

  timeslot: (operatorId: string, activityId: string, date: string, time: string): ItemKey => ({
    PK: activityPartition(operatorId, activityId),
    SK: `SLOT#${date}#${time}`,
  }),
  /** Inclusive SK bounds covering every timeslot from the first date to the last date. */
  timeslotRange: (operatorId: string, activityId: string, firstDate: string, lastDate: string) => ({
    PK: activityPartition(operatorId, activityId),
    SKFrom: `SLOT#${firstDate}#`,
    // '~' sorts after every character a time can contain, so the whole last day is included.
    SKTo: `SLOT#${lastDate}#~`,
  }),
};
