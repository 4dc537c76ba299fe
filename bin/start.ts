import {
  LOCAL_CREDENTIALS,
  LOCAL_DATA_DIR,
  LOCAL_DYNAMODB_PORT,
  LOCAL_HTTP_HOST,
  LOCAL_HTTP_PORT,
  LOCAL_TABLE_NAME,
} from '../lib/local/defaults';
import { localClient, startDynamoDbLocal } from '../lib/local/dynamodb-local';
import { startLocalHost } from '../lib/local/api-gateway';
import { ensureTable } from '../lib/local/table';
import { seedDemo } from '../lib/local/demo-data';
import { configure } from '../shared/core/config';

/**
 * `npm start`: DynamoDB Local (data under .data/, or in memory with
 * DYNAMODB_IN_MEMORY=1), the table, the demo operator, and the local host on
 * HOST:PORT (the loopback interface unless HOST says otherwise).
 */

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The last resort: whatever escapes a request's own handling is logged, and
 * the host keeps serving (with DYNAMODB_IN_MEMORY=1, stopping would lose every record).
 */
function keepServingOnEscapedErrors(): void {
  // With the terminal or the pipe it logs to gone, logging fails with EPIPE; that is no reason to stop, nor to log again.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  let logging = false;
  const log = (kind: string) => (error: unknown) => {
    if (logging) return;
    logging = true;
    try {
      console.error(
        JSON.stringify({ level: 'error', message: `Local host: ${kind}, still serving`, error: String((error as Error)?.stack ?? error) }),
      );
    } catch {
      // Nothing more can be done about a log line that cannot be written.
    } finally {
      logging = false;
    }
  };
  process.on('uncaughtException', log('uncaught exception'));
  process.on('unhandledRejection', log('unhandled rejection'));
}

async function main(): Promise<void> {
  // Metrics are CloudWatch's (EMF): on one machine they are noise beside the request lines, unless asked for.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const inMemory = process.env.DYNAMODB_IN_MEMORY === '1';
  const dynamoLocal = process.env.DYNAMODB_ENDPOINT
    ? undefined
    : await startDynamoDbLocal({
        port: Number(process.env.DYNAMODB_LOCAL_PORT ?? LOCAL_DYNAMODB_PORT),
        dataDir: inMemory ? undefined : LOCAL_DATA_DIR,
      });
  dynamoLocal?.onUnexpectedExit((reason) =>
    console.error(`DynamoDB Local stopped unexpectedly; every request will fail until npm start is restarted. ${reason}`),
  );
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? (dynamoLocal?.endpoint as string);
  const { tableName } = configure({
    tableName: process.env.TABLE_NAME ?? LOCAL_TABLE_NAME,
    dynamoEndpoint: endpoint,
    localCredentials: LOCAL_CREDENTIALS,
    // Partners' test receivers on this machine (http://127.0.0.1:...) may be registered; on AWS never.
    webhookTargets: 'loopback-http',
  });

  const client = localClient(endpoint);
  const table = await ensureTable(client, tableName);
  client.destroy();
  const demo = await seedDemo();
  const hostName = process.env.HOST || LOCAL_HTTP_HOST;
  if (!LOOPBACK.has(hostName)) {
    console.warn(
      `Warning: HOST=${hostName} makes the local host reachable from other machines. It is a development server: ` +
        'the demo key, the dashboard and the local event bus (which records billable usage) are open to whoever reaches the port.',
    );
  }
  const host = await startLocalHost({
    port: Number(process.env.PORT ?? LOCAL_HTTP_PORT),
    host: hostName,
    // Expiring holds and retrying webhooks every minute, as the stack's schedules do.
    scheduler: { intervalMs: 60_000 },
  });
  keepServingOnEscapedErrors();

  console.log(`DynamoDB Local: ${endpoint} (${inMemory ? 'in memory' : LOCAL_DATA_DIR}), table ${tableName} ${table}`);
  if (demo.newKey) {
    console.log(`Demo operator's API key ${demo.newKey.keyId} (every scope; shown this once): ${demo.newKey.secret}`);
  }
  console.log(`API listening on ${host.url} (GET ${host.url}/health)`);
  demo.history?.then(
    ({ bookings, usageEntries }) => console.log(`Demo history written: ${bookings} bookings and ${usageEntries} usage entries`),
    (error) => console.error(`The demo history could not be written: ${error instanceof Error ? error.message : error}`),
  );

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
