import path from 'node:path';
import { BACKGROUND_AS_ON_AWS, LOCAL_CREDENTIALS, LOCAL_DATA_DIR, LOCAL_KMS_KEY_FILE, localSettings } from '../lib/local/defaults';
import { awaitCommits, localClient, startDynamoDbLocal, type DynamoDbLocal } from '../lib/local/dynamodb-local';
import { startLocalHost } from '../lib/local/host';
import { ensureTable } from '../lib/local/table';
import { seedDemo } from '../lib/local/demo-data';
import { configure } from '../shared/core/config';
import { attributeClient } from '../shared/db/client';
import { log as logger, logError } from '../shared/core/observability';

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

/** The demo key goes to the terminal, once, never to the log. */
const printDemoKey = ({ keyId, secret }: { keyId: string; secret: string }) =>
  console.log(`Demo operator's API key ${keyId} (every scope; shown this once): ${secret}`);

/**
 * The table and the demo operator: the table is made when it is missing, and
 * the demo data with it, or on request (every start refreshes the demo
 * catalogue so that its four weeks of timeslots start today).
 */
async function prepareData(endpoint: string, tableName: string, refreshDemo: boolean) {
  const client = localClient(endpoint);
  try {
    const table = await ensureTable(client, tableName);
    const demo = refreshDemo || table === 'created' ? await seedDemo() : {};
    return { table, demo };
  } finally {
    client.destroy();
  }
}

/** Logs each stop and restart of DynamoDB Local, and makes its data ready again after a restart. */
function superviseDynamoDbLocal(dynamoLocal: DynamoDbLocal, storage: string, tableName: string): void {
  const seconds = (ms: number) => ms / 1000;
  dynamoLocal.onChange((change) => {
    if (change.kind === 'stopped') {
      logError('DynamoDB Local stopped unexpectedly', { reason: change.reason, restartInSeconds: seconds(change.restartInMs ?? 0) });
      return;
    }
    if (change.kind === 'restart-failed') {
      const { attempt, reason, restartInMs } = change;
      logError('DynamoDB Local restart failed', { attempt, reason, restartInSeconds: seconds(restartInMs) });
      return;
    }
    logger().info('DynamoDB Local restarted', { attempt: change.attempt, downSeconds: seconds(change.downMs), storage });
    // On disk the data is all there; in memory it starts empty, and is made again.
    prepareData(dynamoLocal.endpoint, tableName, false)
      .then(({ demo }) => demo.newKey && printDemoKey(demo.newKey))
      .catch((error) => logError('DynamoDB Local restarted, but its table could not be made ready', { error }));
  });
}

async function main(): Promise<void> {
  // Metrics are CloudWatch's (EMF): on one machine they are noise beside the request lines, unless asked for.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const inMemory = process.env.DYNAMODB_IN_MEMORY === '1';
  const dataDir = process.env.DYNAMODB_DATA_DIR || LOCAL_DATA_DIR;
  const storage = inMemory ? 'in memory' : dataDir;
  const settings = localSettings();
  const dynamoLocal = settings.existingDynamoDb
    ? undefined
    : await startDynamoDbLocal({ port: settings.dynamoDbPort, dataDir: inMemory ? undefined : dataDir, supervise: true });
  const endpoint = settings.existingDynamoDb ?? (dynamoLocal?.endpoint as string);
  const { tableName } = configure({
    tableName: settings.tableName,
    dynamoEndpoint: endpoint,
    localCredentials: LOCAL_CREDENTIALS,
    // Partners' test receivers on this machine (http://127.0.0.1:...) may be registered; on AWS never.
    webhookTargets: 'loopback-http',
  });
  if (dynamoLocal) superviseDynamoDbLocal(dynamoLocal, storage, tableName);
  // A booking or usage entry is answered once it is on disk (see awaitCommits); in memory there is no disk to wait for.
  if (!inMemory) awaitCommits(attributeClient());

  const { table, demo } = await prepareData(endpoint, tableName, true);
  const hostName = settings.httpHost;
  if (!LOOPBACK.has(hostName)) {
    console.warn(
      `Warning: HOST=${hostName} makes the local host reachable from other machines. It is a development server: ` +
        'the demo key, the dashboard and the local event bus (which records billable usage) are open to whoever reaches the port.',
    );
  }
  const host = await startLocalHost({
    port: settings.httpPort,
    host: hostName,
    ...BACKGROUND_AS_ON_AWS,
    // The key that encrypts webhook signing secrets lives as long as the table they are kept in.
    kms: inMemory ? {} : { keyFile: path.join(dataDir, LOCAL_KMS_KEY_FILE) },
  });
  keepServingOnEscapedErrors();

  console.log(`DynamoDB Local: ${endpoint} (${storage}), table ${tableName} ${table}`);
  if (demo.newKey) printDemoKey(demo.newKey);
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
