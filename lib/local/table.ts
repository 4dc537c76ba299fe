import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { tableDesign } from '../../shared/db/table-design';

/** Creates the single table as the stack defines it, unless it is already there. */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttributes = [
    tableDesign.partitionKey,
    tableDesign.sortKey,
    ...tableDesign.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDesign.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
    }),
  );
  return 'created';
}
