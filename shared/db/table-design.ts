/**
 * The single table's physical shape. The CDK stack and the local table setup
 * both build the table from this description, so they cannot drift apart.
 */
export const tableDesign = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'ExpiresAt',
  globalSecondaryIndexes: [{ indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' }],
} as const;

export const GSI1 = tableDesign.globalSecondaryIndexes[0].indexName;
