import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { freePort } from '../support/fixtures';
import { rawExchange, rawRequest, sigV4Authorization, type RawResponse } from '../../scripts/fuzz/raw-http';

/**
 * `npm start` as a process: what happens to DynamoDB Local when the host is
 * killed, what a start on a taken port says, that a hostile event does not
 * stop the host, and that a refusal reaches a client still sending its body
 * (a race that needs the host in a process of its own: in one process, client
 * and host take turns on one event loop). Each waits on events (output lines,
 * socket closes), not time.
 */

const ROOT = path.resolve(__dirname, '../..');

// Each test starts DynamoDB Local (Java) once or twice, which takes long on a busy machine.
jest.setTimeout(180_000);

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves when the output (stdout and stderr) first matches `pattern`. */
  waitFor: (pattern: RegExp) => Promise<void>;
}

function npmStart(env: Record<string, string>): Started & { ready: () => Promise<string>; exited: Promise<number | null> } {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    // Any free port unless a test names one: a developer's own npm start may hold the default 8000.
    DYNAMODB_LOCAL_PORT: '0',
    DYNAMODB_IN_MEMORY: '1',
    ...env,
  };
  delete childEnv.DYNAMODB_ENDPOINT;
  delete childEnv.TABLE_NAME;
  // As a developer starts it: the test run's own level (silent) is not the host's.
  delete childEnv.LOG_LEVEL;
  // node itself, not a wrapper, so that a SIGKILL kills the host and nothing else.
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/start.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const waiter of waiters.filter(({ pattern }) => pattern.test(output))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = (pattern: RegExp) =>
    pattern.test(output) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ pattern, resolve }));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const started: Started & { ready: () => Promise<string>; exited: Promise<number | null> } = {
    child,
    url: '',
    output: () => output,
    waitFor,
    exited,
    ready: () =>
      Promise.race([
        waitFor(/API listening on (\S+)/).then(() => (started.url = /API listening on (\S+)/.exec(output)![1])),
        exited.then((code) => Promise.reject(new Error(`npm start exited (${code}):\n${output}`))),
      ]),
  };
  return started;
}

const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

/** Resolves when a socket closes, whether cleanly or by a reset (events.once would reject on the reset's error). */
const closeOf = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

/** Resolves once the port refuses connections; a connection that is still accepted is waited on until its server closes it. */
async function refusedOnceClosed(port: number): Promise<void> {
  for (;;) {
    const socket = connect(port, '127.0.0.1');
    const accepted = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (!accepted) return;
    socket.on('error', () => undefined);
    await closeOf(socket);
  }
}

describe('npm start', () => {
  it('leaves no DynamoDB Local behind when the host is killed with SIGKILL, so the next start gets the port', async () => {
    const dynamoPort = await freePort();
    const first = npmStart({ DYNAMODB_LOCAL_PORT: String(dynamoPort) });
    await first.ready();
    // A connection to DynamoDB Local closes when its process ends: the test waits on that, not on time.
    const toDynamo = connect(dynamoPort, '127.0.0.1');
    // The end may come as a reset rather than a clean close; either way 'close' follows.
    toDynamo.on('error', () => undefined);
    await once(toDynamo, 'connect');
    const closed = closeOf(toDynamo);
    first.child.kill('SIGKILL');
    await first.exited;
    await closed;
    // The JVM may close its connections a moment before its listening socket: each try waits on a close, not on time.
    await refusedOnceClosed(dynamoPort);
    expect(await connectionRefused(dynamoPort)).toBe(true);

    const second = npmStart({ DYNAMODB_LOCAL_PORT: String(dynamoPort), HOST: '0.0.0.0' });
    await second.ready();
    expect(second.output()).toMatch(/Warning: HOST=0\.0\.0\.0 makes the local host reachable from other machines/);
    const health = await fetch(`http://127.0.0.1:${new URL(second.url).port}/health`);
    expect(health.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(await connectionRefused(dynamoPort)).toBe(true);
  });

  it('says which port is taken, and by what, instead of talking to whatever holds it', async () => {
    const holder: Server = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const heldPort = (holder.address() as { port: number }).port;
    const byOther = npmStart({ DYNAMODB_LOCAL_PORT: String(heldPort) });
    expect(await byOther.exited).toBe(1);
    expect(byOther.output()).toMatch(new RegExp(`Port ${heldPort} is in use by another program`));
    holder.close();

    // The test run's own DynamoDB Local stands in for one left behind by an earlier start.
    const dynamoPort = new URL(process.env.DYNAMODB_ENDPOINT as string).port;
    const byDynamo = npmStart({ DYNAMODB_LOCAL_PORT: dynamoPort });
    expect(await byDynamo.exited).toBe(1);
    expect(byDynamo.output()).toMatch(new RegExp(`A DynamoDB already answers on port ${dynamoPort}.*DYNAMODB_ENDPOINT=`));
  });

  it('keeps serving after an event nested 10,000 deep has failed its delivery', async () => {
    const started = npmStart({ DYNAMODB_LOCAL_PORT: String(await freePort()) });
    await started.ready();
    const detail = `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const body = `{"Entries":[{"Source":"platform.orders","DetailType":"Order Completed","Detail":${JSON.stringify(detail)}}]}`;
    const [answer] = await rawExchange(
      started.url,
      rawRequest(
        'POST',
        '/',
        [
          ['Host', new URL(started.url).host],
          ['X-Amz-Target', 'AWSEvents.PutEvents'],
          ['Authorization', sigV4Authorization()],
          ['Connection', 'close'],
        ],
        body,
      ),
    );
    expect(answer.status).toBe(200);
    await started.waitFor(/Dead letter: platform event not recorded/);
    expect((await fetch(`${started.url}/health`)).status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });
});

describe('a refusal before the body is read', () => {
  const USAGE = '/api/v2/usage/meters';
  const FIVE_MB = Buffer.alloc(5 * 1024 * 1024, 'a');
  // Past the limit, and past what the sockets' buffers hold, so that the host must read on for the upload to end.
  const SIXTEEN_MB = Buffer.alloc(16 * 1024 * 1024, 'a');
  type Connection = 'close' | 'keep-alive';
  /** A request written from its head (given the Host it names), up to where its framing headers and body go. */
  const fromHead =
    (head: (host: string) => string, payload = FIVE_MB) =>
    (connection: Connection, host: string) =>
      Buffer.concat([
        Buffer.from(`${head(host)}Content-Length: ${payload.length}\r\nConnection: ${connection}\r\n\r\n`, 'latin1'),
        payload,
      ]);
  /** A POST written with headers; it names the host as it listens unless `namedHost` says otherwise. */
  const post =
    (target: string, headers: [string, string][], payload = FIVE_MB, namedHost?: string) =>
    (connection: Connection, host: string) =>
      rawRequest('POST', target, [['Host', namedHost ?? host], ...headers, ['Connection', connection]], payload);
  const refusals: [string, (connection: Connection, host: string) => Buffer, number, string][] = [
    ['an obs-folded header', fromHead((host) => `POST ${USAGE} HTTP/1.1\r\nHost: ${host}\r\nX-Folded: a\r\n b\r\n`), 400, '/'],
    ['a header line ended by a bare LF', fromHead((host) => `POST ${USAGE} HTTP/1.1\r\nHost: ${host}\nX-Bare: lf\r\n`), 400, '/'],
    ['headers over 16 KB', fromHead((host) => `POST ${USAGE} HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'x'.repeat(17_000)}\r\n`), 431, '/'],
    ['a path that is not valid percent-encoding', post(`${USAGE}/%zz/void`, []), 400, `${USAGE}/%zz/void`],
    ['a body over 6 MB', post(USAGE, [['Content-Type', 'application/json']], SIXTEEN_MB), 413, USAGE],
    ['a path of no route', post('/api/v2/nothing', []), 404, '/api/v2/nothing'],
    ['no Host', fromHead(() => `POST ${USAGE} HTTP/1.1\r\n`), 400, USAGE],
    ['a Host that names another host', post(USAGE, [], FIVE_MB, 'attacker.example'), 421, USAGE],
    ['an Expect other than 100-continue', post(USAGE, [['Expect', 'junk']]), 417, USAGE],
  ];
  /**
   * Each refusal is sent this many times, in turn with `Connection: close` and keep-alive, and by a client that
   * reads while it sends or one that reads only once it has sent everything (the answer then waits in its buffer).
   */
  const REPETITIONS = 12;
  const modes = (i: number) => ({ connection: (i % 2 ? 'close' : 'keep-alive') as Connection, readAfterWriting: i % 4 >= 2 });
  let started: ReturnType<typeof npmStart>;

  beforeAll(async () => {
    // The test run's DynamoDB Local, with a table of its own: no Java to start.
    started = npmStart({ DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT as string, TABLE_NAME: `early-refusals-${process.pid}` });
    await started.ready();
  });

  afterAll(async () => {
    started.child.kill('SIGTERM');
    await started.exited;
  });

  it.each(refusals)('answers %s in full, every time, to a client still sending megabytes', async (_, request, status, instance) => {
    for (let i = 0; i < REPETITIONS; i += 1) {
      const { connection, readAfterWriting } = modes(i);
      const responses: RawResponse[] = await rawExchange(started.url, request(connection, new URL(started.url).host), {
        endAfter: 1,
        readAfterWriting,
      });
      expect(responses).toHaveLength(1);
      expect(responses[0].status).toBe(status);
      expect(responses[0].headers['content-type']).toBe('application/problem+json');
      expect(responses[0].json).toMatchObject({
        status,
        instance,
        type: expect.any(String),
        title: expect.any(String),
        detail: expect.any(String),
      });
    }
  });

  it('answers an unsigned PutEvents call with a large body in full, every time', async () => {
    for (let i = 0; i < REPETITIONS; i += 1) {
      const { connection, readAfterWriting } = modes(i);
      const request = post('/', [['X-Amz-Target', 'AWSEvents.PutEvents']])(connection, new URL(started.url).host);
      const [response] = await rawExchange(started.url, request, { endAfter: 1, readAfterWriting });
      expect(response.status).toBe(400);
      expect(response.json.__type).toBe('MissingAuthenticationTokenException');
    }
  });
});
