import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateTableCommand, ScanCommand, TransactWriteItemsCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_TABLE_NAME } from '../../lib/local/defaults';
import { awaitCommits, localClient } from '../../lib/local/dynamodb-local';
import { DEMO_OPERATOR } from '../../lib/local/demo-data';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { addDays, wallClock } from '../../shared/core/calendar';
import { configure } from '../../shared/core/config';
import { attributeClient } from '../../shared/db/client';
import { freePort } from '../support/fixtures';

/**
 * `npm start` with its data on disk, whose DynamoDB Local (Java) is killed
 * with SIGKILL, as the kernel's out-of-memory killer would: the host starts it
 * again on the same data and says so in its log; no write acknowledged before
 * the kill is lost, even one DynamoDB Local had answered but not yet
 * committed; and under load every request retried with its idempotency key
 * ends in exactly one booking or usage entry, every booking answered 201 in the table.
 */

const ROOT = path.resolve(__dirname, '../..');
// DynamoDB Local (Java) starts once, then again after each kill, which takes long on a busy machine.
jest.setTimeout(180_000);

const logLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);

/** The processes whose parent is `pid`, from /proc. */
const childrenOf = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The command name sits in parentheses and may hold spaces: the parent ID is the second field after it.
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

/** The Java process of npm start's DynamoDB Local: npm start → guard → java. */
function javaOf(host: ChildProcess): number {
  const [java] = childrenOf(host.pid as number).flatMap(childrenOf);
  if (!java) throw new Error('DynamoDB Local (Java) is not running');
  return java;
}

let host: ChildProcess;
let output = '';
let url: string;
let key: string;
let dynamoPort: number;
const dataDir = mkdtempSync(path.join(tmpdir(), 'dynamodb-data-'));
const waiters: (() => void)[] = [];

/** Resolves once `count` log lines with this message have been written. */
const logged = (message: string, count = 1) =>
  new Promise<Record<string, any>[]>((resolve) => {
    // Each chunk of output wakes every waiter once: one still waiting asks again.
    const check = () => {
      const lines = logLines(output).filter((line) => line.message === message);
      if (lines.length < count) return void waiters.push(check);
      resolve(lines);
    };
    check();
  });

beforeAll(async () => {
  dynamoPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    DYNAMODB_LOCAL_PORT: String(dynamoPort),
    DYNAMODB_DATA_DIR: dataDir,
    LOG_LEVEL: 'INFO',
  };
  for (const name of ['DYNAMODB_ENDPOINT', 'TABLE_NAME', 'DYNAMODB_IN_MEMORY']) delete env[name];
  host = spawn(process.execPath, ['--import', 'tsx', 'bin/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Whole lines of each stream, so that a line of stderr never lands inside one of stdout.
  const collect = () => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const end = text.lastIndexOf('\n') + 1;
      partial = text.slice(end);
      output += text.slice(0, end);
      waiters.splice(0).forEach((waiter) => waiter());
    };
  };
  host.stdout!.on('data', collect());
  host.stderr!.on('data', collect());
  await new Promise<void>((resolve, reject) => {
    const ready = () => (/API listening on (\S+)/.test(output) ? resolve() : waiters.push(ready));
    ready();
    host.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  url = /API listening on (\S+)/.exec(output)![1];
  // A key of the demo operator at the highest rate limit, so that the load meets DynamoDB Local, not the token bucket.
  configure({ tableName: LOCAL_TABLE_NAME, dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`, localCredentials: LOCAL_CREDENTIALS });
  key = (
    await createApiKey(DEMO_OPERATOR.OperatorID, ['ota', 'usage:read', 'usage:write', 'bookings:read'], 'restart test', MAX_KEY_LIMITS)
  ).secret;
});

afterAll(async () => {
  attributeClient().destroy();
  host.kill('SIGTERM');
  if (host.exitCode === null) await once(host, 'exit');
  rmSync(dataDir, { recursive: true, force: true });
});

const api = async (method: string, target: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${url}${target}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
};

const tomorrow = addDays(wallClock('Europe/Lisbon').date, 1);
const booking = (date: string, time: string, name: string) => ({
  ActivityID: 's_kayak01',
  Date: date,
  Time: time,
  Participants: 1,
  Customer: { FirstName: name, LastName: 'Restart', Email: 'restart@example.com' },
});
const OCCURRED_AT = Date.parse('2026-01-15T12:00:00Z') / 1000;

describe('DynamoDB Local killed under npm start', () => {
  it('acknowledges no transaction before it is committed, even when killed at the moment DynamoDB Local answers one', async () => {
    const before = await api('POST', '/api/v2/ota/marketplace/booking', booking(tomorrow, '10:00', 'Before'));
    expect(before.status).toBe(201);
    // A client of npm start's DynamoDB Local as npm start makes its own (awaitCommits), on a table of the test's own.
    const client = localClient(`http://127.0.0.1:${dynamoPort}`, { maxAttempts: 1 });
    await client.send(
      new CreateTableCommand({
        TableName: 'commit-probe',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'PK', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }],
      }),
    );
    awaitCommits(client);
    // The kill lands where DynamoDB Local has answered a transaction and may not have committed it yet: right after its answer.
    let answers = 0;
    const KILL_AT = 50;
    client.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        if (String((args.request as { headers?: Record<string, string> }).headers?.['x-amz-target']).endsWith('.TransactWriteItems')) {
          answers += 1;
          if (answers === KILL_AT) process.kill(javaOf(host), 'SIGKILL');
        }
        return result;
      },
      { step: 'finalizeRequest', name: 'killOnAnswer' },
    );
    const acknowledged: string[] = [];
    const write = (id: string) =>
      client.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: 'commit-probe', Item: { PK: { S: id } }, ConditionExpression: 'attribute_not_exists(PK)' } },
            {
              Update: {
                TableName: 'commit-probe',
                Key: { PK: { S: 'count' } },
                UpdateExpression: 'ADD Writes :one',
                ExpressionAttributeValues: { ':one': { N: '1' } },
              },
            },
          ],
        }),
      );
    await Promise.all(
      Array.from({ length: 16 }, async (_, writer) => {
        for (let i = 0; ; i += 1) {
          const id = `w${writer}-${i}`;
          try {
            await write(id);
          } catch {
            return;
          }
          acknowledged.push(id);
        }
      }),
    );
    expect(answers).toBeGreaterThanOrEqual(KILL_AT);

    const [stopped] = await logged('DynamoDB Local stopped unexpectedly');
    expect(stopped).toMatchObject({ level: 'ERROR', service: expect.any(String), restartInSeconds: 1 });
    // Another program takes the port during the backoff: the restart fails, says so, and is tried again later.
    // It hangs up on whoever connects (npm start's own clients keep trying), so that closing it is not held up by them.
    const holder: Server = createServer((socket) => socket.destroy()).listen(dynamoPort, '127.0.0.1');
    await once(holder, 'listening');
    const [failed] = await logged('DynamoDB Local restart failed');
    expect(failed).toMatchObject({ level: 'ERROR', attempt: 1, restartInSeconds: 2, reason: expect.stringMatching(/EADDRINUSE/) });
    await new Promise((resolve) => holder.close(resolve));
    const [restarted] = await logged('DynamoDB Local restarted');
    expect(restarted).toMatchObject({ level: 'INFO', attempt: 2, storage: dataDir });

    // On the same data: every transaction acknowledged is there, and so is the booking made before the kill.
    const present = new Set<string>();
    let start: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: 'commit-probe', ExclusiveStartKey: start }));
      for (const item of page.Items ?? []) present.add(item.PK.S as string);
      start = page.LastEvaluatedKey;
    } while (start);
    client.destroy();
    expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
    // The one answered at the kill was not acknowledged: its commit could not be confirmed.
    expect(acknowledged.length).toBeLessThan(answers);
    const read = await api('GET', `/api/v2/ota/marketplace/booking/${before.json.data.BookingReference}`);
    expect(read.status).toBe(200);
    expect(read.json.data.Customer.FirstName).toBe('Before');
  });

  it('under 16 clients, ends every request retried with its key in exactly one booking or entry, and keeps every booking answered 201', async () => {
    const CLIENTS = 16;
    const PER_CLIENT = 6;
    const KILL_AFTER = 32;
    const answered = { bookings: new Map<string, Set<string>>(), entries: new Map<string, Set<number>>() };
    let created = 0;
    let killed = false;
    let retries = 0;
    // One client's failure stops the others, so that none is left sending after the test.
    const failed = new AbortController();

    /** Sends one request with its key until it is answered 201 (first time or replayed); a 5xx or a refused connection is retried. */
    async function untilCreated(path: string, body: unknown, idempotencyKey: string) {
      for (;;) {
        failed.signal.throwIfAborted();
        const response = await api('POST', path, body, { 'Idempotency-Key': idempotencyKey }).catch(() => undefined);
        if (response?.status === 201) return response;
        if (response && response.status < 500) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(response.json)}`);
        retries += 1;
        // DynamoDB Local is starting again: a moment before the next try.
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    const clients = await Promise.allSettled(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < PER_CLIENT; i += 1) {
          const bookingKey = `kill-booking-${client}-${i}`;
          const made = await untilCreated(
            '/api/v2/ota/marketplace/booking',
            booking(addDays(tomorrow, 1 + client), i % 2 ? '17:30' : '10:00', `C${client}`),
            bookingKey,
          );
          answered.bookings.set(bookingKey, (answered.bookings.get(bookingKey) ?? new Set()).add(made.json.data.BookingReference));
          created += 1;
          // Killed at once on an answered booking, while writes of the other clients are in flight.
          if (created === KILL_AFTER && !killed) {
            killed = true;
            process.kill(javaOf(host), 'SIGKILL');
          }
          const entryKey = `kill-usage-${client}-${i}`;
          const entry = await untilCreated('/api/v2/usage/meters', { Meter: 'kill-test', Usage: 1, OccurredAt: OCCURRED_AT }, entryKey);
          answered.entries.set(entryKey, (answered.entries.get(entryKey) ?? new Set()).add(entry.json.data.ID));
        }
      }).map((client) => client.catch((error) => failed.abort(error))),
    );
    expect(clients.every((client) => client.status === 'fulfilled')).toBe(true);
    if (failed.signal.aborted) throw failed.signal.reason;
    expect(killed).toBe(true);
    expect(retries).toBeGreaterThan(0);
    await logged('DynamoDB Local restarted', 2);

    // Each key was answered with one booking (or entry) however often it was sent.
    expect([...answered.bookings.values()].every((references) => references.size === 1)).toBe(true);
    expect([...answered.entries.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(answered.bookings.size).toBe(CLIENTS * PER_CLIENT);

    // The table holds exactly the bookings answered 201 (and the one of the first test), and every entry once.
    const references = new Set<string>();
    let cursor: string | null = null;
    do {
      const today = wallClock('Europe/Lisbon').date;
      const query = `from=${addDays(today, -1)}&to=${today}&limit=200${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await api('GET', `/api/v2/bookings?${query}`);
      expect(page.status).toBe(200);
      page.json.data.Bookings.forEach((item: { BookingReference: string }) => references.add(item.BookingReference));
      cursor = page.json.data.NextCursor;
    } while (cursor);
    const answeredReferences = [...answered.bookings.values()].map((set) => [...set][0]);
    expect(answeredReferences.filter((reference) => !references.has(reference))).toEqual([]);
    expect(references.size).toBe(answeredReferences.length + 1);
    const summary = await api('GET', '/api/v2/usage/meters?from=2026-01-15&to=2026-01-15');
    expect(summary.json.data.Meters).toEqual([{ Meter: 'kill-test', TotalUsage: CLIENTS * PER_CLIENT, EventCount: CLIENTS * PER_CLIENT }]);
  });
});
