import { LOCAL_CREDENTIALS, LOCAL_DATA_DIR, LOCAL_DYNAMODB_PORT, LOCAL_HTTP_PORT, LOCAL_TABLE_NAME } from '../lib/local/defaults';
import { localClient, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { startLocalHost } from '../lib/local/api-gateway';
import { ensureTable } from '../lib/local/table';
import { seedDemo } from '../scripts/demo-data';
import { configure } from '../shared/core/config';

/**
 * `npm start`: DynamoDB Local (data under .data/, or in memory with
 * DYNAMODB_IN_MEMORY=1), the table, the demo operator, and the local host on PORT.
 */
async function main(): Promise<void> {
  const inMemory = process.env.DYNAMODB_IN_MEMORY === '1';
  const dynamoLocal = process.env.DYNAMODB_ENDPOINT
    ? undefined
    : await startDynamoDbLocal({
        port: Number(process.env.DYNAMODB_LOCAL_PORT ?? LOCAL_DYNAMODB_PORT),
        dataDir: inMemory ? undefined : LOCAL_DATA_DIR,
      });
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? (dynamoLocal?.endpoint as string);
  const { tableName } = configure({
    tableName: process.env.TABLE_NAME ?? LOCAL_TABLE_NAME,
    dynamoEndpoint: endpoint,
    dynamoCredentials: LOCAL_CREDENTIALS,
    // Partners' test receivers on this machine (http://127.0.0.1:...) may be registered; on AWS never.
    webhookTargets: 'loopback-http',
  });

  const client = localClient(endpoint);
  const table = await ensureTable(client, tableName);
  client.destroy();
  const demo = await seedDemo();
  const host = await startLocalHost({
    port: Number(process.env.PORT ?? LOCAL_HTTP_PORT),
    host: process.env.HOST ?? '127.0.0.1',
    // Expiring holds and retrying webhooks every minute, as the stack's schedules do.
    scheduler: { intervalMs: 60_000 },
  });

  console.log(`DynamoDB Local: ${endpoint} (${inMemory ? 'in memory' : LOCAL_DATA_DIR}), table ${tableName} ${table}`);
  if (demo.newKey) {
    console.log(`Demo operator's API key ${demo.newKey.keyId} (every scope; shown this once): ${demo.newKey.secret}`);
  }
  console.log(`API listening on ${host.url} (GET ${host.url}/health)`);

  const shutdown = async () => {
    await host.close();
    await dynamoLocal?.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
