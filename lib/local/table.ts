import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { tableDesign } from '../../shared/db/table-design';

/** Resolves once the table and every index of it are ACTIVE: DynamoDB refuses an index while another is being created. */
async function untilActive(client: DynamoDBClient, tableName: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    if (Table?.TableStatus === 'ACTIVE' && indexes.every((index) => index.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} is not ACTIVE after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Adds the indexes a table kept from an earlier version (under .data/) lacks, one at a time as DynamoDB requires. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: Set<string>): Promise<void> {
  for (const index of tableDesign.globalSecondaryIndexes.filter((candidate) => !existing.has(candidate.indexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.indexName,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' },
                { AttributeName: index.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
    await untilActive(client, tableName);
  }
}

const streamSpecification = { StreamEnabled: true, StreamViewType: tableDesign.streamViewType };

/** Creates the single table as the stack defines it, unless it is already there (then adds any index it lacks, and its stream). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existing'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName as string)));
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: streamSpecification }));
    }
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
      StreamSpecification: streamSpecification,
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
