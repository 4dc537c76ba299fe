import { UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS } from '../../lib/local/defaults';
import { localClient, startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTable } from '../../lib/local/table';

/**
 * One in-memory DynamoDB Local for the whole run. Test files share its table
 * and stay apart by using operators of their own (see fixtures.ts). The test
 * workers inherit this environment, which is where the service reads its
 * configuration from on Lambda too.
 */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'ota-usage-test',
    AWS_REGION: 'local',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    // A passing run prints no line of the service; a test that expects lines captures them (support/logs.ts).
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
  });
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, 'ota-usage-test');
  // No file reads this table's stream (those that do have tables of their own), and DynamoDB Local keeps every record
  // of a stream, never trimming it: each write in the run, to any table, grew slower as they piled up (3x an update).
  await client.send(new UpdateTableCommand({ TableName: 'ota-usage-test', StreamSpecification: { StreamEnabled: false } }));
  client.destroy();
  (globalThis as { __dynamoLocal?: DynamoDbLocal }).__dynamoLocal = dynamo;
}
