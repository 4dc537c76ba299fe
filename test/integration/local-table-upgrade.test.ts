import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { localClient, startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTable } from '../../lib/local/table';
import { tableDesign } from '../../shared/db/table-design';

/**
 * `npm start` keeps its table under .data/ between versions, so a table made
 * by an older version gains what it lacks: every index, one at a time as
 * DynamoDB requires, each ACTIVE before the next, and its stream. Checked on
 * a DynamoDB Local of this file's own, as `npm start` meets it: the run's
 * shared one, busy with every other file's writes, takes minutes to build an
 * index, which says nothing about the upgrade.
 */

// Java starts once more for this file, which takes long on a busy machine.
jest.setTimeout(180_000);

let dynamo: DynamoDbLocal;
let client: DynamoDBClient;

beforeAll(async () => {
  dynamo = await startDynamoDbLocal();
  client = localClient(dynamo.endpoint);
});

afterAll(async () => {
  client.destroy();
  await dynamo.stop();
});

it('gains its indexes and its stream when it was made by a version without them', async () => {
  const name = 'ota-usage-without-stream';
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'PK', AttributeType: 'S' },
        { AttributeName: 'SK', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
    }),
  );
  expect(await ensureTable(client, name)).toBe('existing');
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
  expect(Table?.GlobalSecondaryIndexes?.map((index) => [index.IndexName, index.IndexStatus]).sort()).toEqual(
    tableDesign.globalSecondaryIndexes.map((index) => [index.indexName, 'ACTIVE']).sort(),
  );
});

it('is left as it is when it already has them', async () => {
  const name = 'ota-usage-current';
  expect(await ensureTable(client, name)).toBe('created');
  const before = (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  expect(await ensureTable(client, name)).toBe('existing');
  const after = (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  expect(after?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
    before?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort(),
  );
  expect(after?.StreamSpecification).toEqual(before?.StreamSpecification);
});
