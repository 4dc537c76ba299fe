import { startDynamoDbLocal } from '../../lib/dynamodb-local';
import { ensureTable } from '../../lib/local-table';
import { localClient } from '../../lib/dynamodb-local';

/**
 * One in-memory DynamoDB Local for the whole run. Test files share its table
 * and stay apart by using operators of their own (see fixtures.ts).
 */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = 'ota-usage-test';
  process.env.AWS_REGION = 'local';
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, process.env.TABLE_NAME);
  client.destroy();
  (globalThis as { __dynamoLocal?: typeof dynamo }).__dynamoLocal = dynamo;
}
