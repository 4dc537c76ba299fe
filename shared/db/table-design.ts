/*
 * The index names are constants of their own, ahead of the table's shape, so
 * that code querying an index carries its name and not the whole description.
 */
export const GSI1 = 'GSI1';
/** Bookings by the day of their timeslot: the operator's manifest. */
export const GSI2 = 'GSI2';
/** Sparse: only work that falls due carries it (holds by expiry, webhook deliveries by next attempt). */
export const GSI3 = 'GSI3';
/** Sparse: only bookings a partner addresses by UUID (OCTo) carry it, by partner key and timeslot day, for their whole life. */
export const GSI4 = 'GSI4';

/**
 * The single table's physical shape. The CDK stack and the local table setup
 * both build the table from this description, so they cannot drift apart.
 */
export const tableDesign = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'ExpiresAt',
  /** The stream carries each written item whole: the webhook sender reads queued deliveries from it (shared/api/background.ts). */
  streamViewType: 'NEW_IMAGE',
  globalSecondaryIndexes: [
    { indexName: GSI1, partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: GSI2, partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { indexName: GSI3, partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    { indexName: GSI4, partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
  ],
} as const;
