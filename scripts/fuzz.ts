import { spawn } from 'node:child_process';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS, LOCAL_TABLE_NAME } from '../lib/local/defaults';
import { createApiKey, MAX_KEY_LIMITS } from '../shared/accounts/api-keys';
import { SCOPES, type Scope } from '../shared/accounts/scopes';
import { configure } from '../shared/core/config';
import { DEMO_OPERATOR } from '../lib/local/demo-data';
import { addDays, wallClock } from '../shared/core/calendar';
import { availabilityIdOf } from '../shared/octo/render';
import { octoErrorSchema } from '../shared/octo/schemas/answers';
import { rawExchange, type RawResponse } from './fuzz/raw-http';
import { apiCases } from './fuzz/api-cases';
import { busCases, edgeCases } from './fuzz/edge-and-bus-cases';
import { kmsCases } from './fuzz/kms-cases';
import { random, type FuzzCase, type Operation } from './fuzz/hostile-values';

/**
 * `npm run fuzz`: an adversarial pass over `npm start`. Starts it (in memory,
 * on free ports unless PORT and DYNAMODB_LOCAL_PORT are set), sends thousands
 * of hostile requests over every operation of its OpenAPI document, the edge
 * of HTTP, the local event bus and the local KMS, and checks: no 5xx; every 4xx
 * of the API a problem+json with type, title, status, detail and instance (the
 * path); every 4xx of the bus and of KMS an AWS error; nothing in the table that a refused request
 * wrote; the host alive afterwards. Prints the counts; exits 1 on any violation.
 * Options: --seed N (FUZZ_SEED), --random N (random combinations per operation),
 * --concurrency N.
 */

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : Number(process.env[`FUZZ_${name.toUpperCase()}`] ?? fallback);
};
const SEED = option('seed', 12);
const RANDOM_PER_OPERATION = option('random', 250);
const CONCURRENCY = option('concurrency', 8);
const ROOT = path.resolve(__dirname, '..');

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
}
const TABLE_NAME = process.env.TABLE_NAME ?? LOCAL_TABLE_NAME;

async function startHost(): Promise<{
  url: string;
  dynamoEndpoint: string;
  key: string;
  output: () => string;
  alive: () => boolean;
  /** SIGTERM, as Ctrl-C would; resolves with the exit code, or undefined when it has not exited within 60 s. */
  stop: () => Promise<number | null | undefined>;
}> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DYNAMODB_IN_MEMORY: '1',
    PORT: process.env.PORT ?? '0',
    DYNAMODB_LOCAL_PORT: process.env.DYNAMODB_LOCAL_PORT ?? '0',
  };
  delete env.DYNAMODB_ENDPOINT;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bin/start.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  child.on('exit', () => (exited = true));
  process.on('exit', () => child.kill('SIGTERM'));
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000_000)));
  // The demo history is written in the background: the run starts once it is all there, so that the audit can set it apart.
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => /Demo history written/.test(output) && resolve());
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  if (/could not be written/.test(output)) throw new Error(`The demo history could not be written:\n${output}`);
  return {
    url: /API listening on (\S+)/.exec(output)![1],
    dynamoEndpoint: /DynamoDB Local: (\S+)/.exec(output)![1],
    key: /\(every scope; shown this once\): (\S+)/.exec(output)![1],
    output: () => output,
    alive: () => !exited,
    stop: () => {
      if (exited) return Promise.resolve(child.exitCode);
      const stopped = new Promise<number | null | undefined>((resolve) => {
        child.once('exit', (code) => resolve(code));
        setTimeout(() => resolve(undefined), 60_000).unref();
      });
      child.kill('SIGTERM');
      return stopped;
    },
  };
}

async function scanTable(db: DynamoDBDocumentClient): Promise<Record<string, string | number | undefined>[]> {
  const items: Record<string, string | number | undefined>[] = [];
  for await (const page of paginateScan({ client: db }, { TableName: TABLE_NAME })) items.push(...(page.Items ?? []));
  return items;
}

const isProblem = (response: RawResponse) =>
  response.headers['content-type'] === 'application/problem+json' &&
  ['type', 'title', 'detail', 'instance'].every((field) => typeof response.json?.[field] === 'string') &&
  response.json.status === response.status &&
  response.json.instance.startsWith('/') &&
  !response.json.instance.includes('?');

const OCTO_CODES = new Set(octoErrorSchema.properties.error.enum);
const OCTO_ECHO: Record<string, string> = {
  INVALID_PRODUCT_ID: 'productId',
  INVALID_OPTION_ID: 'optionId',
  INVALID_UNIT_ID: 'unitId',
  INVALID_AVAILABILITY_ID: 'availabilityId',
  INVALID_BOOKING_UUID: 'uuid',
};

/** OCTo's error body: a known code, a sentence, and the ID as sent for INVALID_*_ID. */
const isOctoError = (response: RawResponse) =>
  OCTO_CODES.has(response.json?.error) &&
  typeof response.json.errorMessage === 'string' &&
  response.json.errorMessage.length > 0 &&
  (!OCTO_ECHO[response.json.error] || typeof response.json[OCTO_ECHO[response.json.error]] === 'string');

/**
 * A refusal as the route's face gives it: on /octo, OCTo's body from the
 * function (400, JSON) or the gateway's problem that carries OCTo's fields too;
 * elsewhere a problem; for a path no route has, a problem without OCTo's fields.
 */
function isRefusal(fuzzCase: FuzzCase, response: RawResponse): boolean {
  if (response.status === 404) return isProblem(response) && response.json.error === undefined;
  if (!fuzzCase.octo) return isProblem(response);
  if (response.headers['content-type'] === 'application/json') return response.status === 400 && isOctoError(response);
  return isProblem(response) && isOctoError(response);
}

function violation(fuzzCase: FuzzCase, responses: RawResponse[]): string | undefined {
  if (!responses.length) return 'no answer';
  if (fuzzCase.mustRefuse && responses[0].status < 300) return `${responses[0].status} to ${fuzzCase.mustRefuse}`;
  for (const response of responses) {
    if (!response.status || response.status >= 500) return `status ${response.status}`;
    if (fuzzCase.head && response.status >= 400 && response.headers['content-type'] !== 'application/problem+json')
      return `${response.status} to HEAD is not problem+json`;
    const awsService = fuzzCase.kind === 'bus' || fuzzCase.kind === 'kms';
    if (response.status >= 400 && !awsService && !fuzzCase.head && !isRefusal(fuzzCase, response))
      return `${response.status} is not a complete ${fuzzCase.octo ? 'OCTo error' : 'problem+json'}: ${response.body.slice(0, 200)}`;
    if (response.status >= 400 && awsService && typeof response.json?.__type !== 'string') return `${response.status} is not an AWS error`;
  }
  return undefined;
}

async function main(): Promise<void> {
  const host = await startHost();
  const call = (method: string, target: string, body?: unknown, key = host.key) =>
    fetch(`${host.url}${target}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data?: any }>); // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's own JSON, read by field

  const document = (await (await fetch(`${host.url}/api/v2/openapi.json`)).json()) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const operations: Operation[] = Object.entries(document.paths).flatMap(([routePath, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: routePath,
      pathParameters: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, required: !!p.required })),
      body: op.requestBody && (Object.values(op.requestBody.content)[0].example as Record<string, unknown>),
    })),
  );

  // What the demo history wrote: the audit counts only what the run adds to it.
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: host.dynamoEndpoint, region: 'local', credentials: LOCAL_CREDENTIALS }),
  );
  const itemKey = (item: Record<string, unknown>) => `${item.PK}|${item.SK}`;
  const before = new Set((await scanTable(db)).map(itemKey));

  // A valid value for every parameter, from the demo operator's own data, on a day past its history (whose days are booked full).
  const date = addDays(wallClock('Europe/Lisbon').date, 21);
  const slot = (await call('GET', `/api/v2/ota/marketplace/availability/s_kayak01/timeslots?Date=${date}`)).data[0];
  const questions: { QuestionID: string; Type: string; Options?: string[] }[] = (await call('GET', '/api/v2/ota/core/questions/s_kayak01'))
    .data;
  const answer = (q: (typeof questions)[number]) =>
    ({ YES_NO: 'YES', SINGLE_CHOICE: q.Options?.[0], DATE: date, FILE_UPLOAD: 'https://files.example.com/waiver.pdf' })[q.Type] ?? 'Yes';
  const bookingBody = {
    ...operations.find((op) => op.path.endsWith('/booking'))!.body,
    Date: slot.Date,
    Time: slot.Time,
    Participants: 1,
    Answers: questions.map((q) => ({ QuestionID: q.QuestionID, Value: answer(q) })),
  };
  const seeded = await call('POST', '/api/v2/ota/marketplace/booking', bookingBody);
  if (!seeded.data) throw new Error(`The valid booking was refused: ${JSON.stringify(seeded)}`);
  const seedBooking = seeded.data;
  // An OCTo reservation on the same timeslot, for the OCTo routes that address one by its uuid.
  const slotId = availabilityIdOf(slot, 'Europe/Lisbon');
  // Without the example's uuid: each mutation is then judged in full rather than refused as that uuid's other request.
  const reservationOperation = operations.find((op) => op.path === '/octo/bookings' && op.method === 'POST')!;
  const reservationBody: Record<string, unknown> = { ...reservationOperation.body, availabilityId: slotId };
  delete reservationBody.uuid;
  reservationOperation.body = reservationBody;
  const seededReservation = (await call('POST', '/octo/bookings', reservationBody)) as { id?: string; uuid?: string };
  if (!seededReservation.uuid) throw new Error(`The valid reservation was refused: ${JSON.stringify(seededReservation)}`);
  // A subscription of the key, for the routes that address one by its id; the feed's cursor of now, for its `since`.
  const subscriptionOperation = operations.find((op) => op.path === '/octo/notifications/subscriptions' && op.method === 'POST')!;
  const subscription = (await call('POST', '/octo/notifications/subscriptions', subscriptionOperation.body)) as { id?: string };
  if (!subscription.id) throw new Error(`The valid subscription was refused: ${JSON.stringify(subscription)}`);
  const cursor = (await call('GET', '/api/v2/ota/marketplace/availability/changes')).data.Cursor as string;
  const today = wallClock('UTC').date;
  // The operator's timeslot routes change a day of their own, so that a close or a cancellation leaves the other routes' timeslot on sale.
  const operatorDay = addDays(date, 1);
  const valid = {
    path: {
      ActivityID: 's_kayak01',
      BookingReference: seedBooking.BookingReference,
      productId: 's_kayak01',
      uuid: seededReservation.uuid,
      subscriptionId: subscription.id,
      LimitID: 'fuzz-limit',
      Date: operatorDay,
      Time: slot.Time,
    },
    query: {
      '/api/v2/ota/marketplace/products': { name: 'kayak' },
      '/api/v2/ota/marketplace/resolve-product': { ID: '1001' },
      '/api/v2/ota/marketplace/availability/{ActivityID}/dates': { StartDate: date, EndDate: addDays(date, 6) },
      '/api/v2/ota/marketplace/availability/{ActivityID}/timeslots': { Date: date },
      '/api/v2/bookings': { from: today, to: today, channel: 'ota', limit: '10' },
      '/api/v2/usage/meters': { from: today, to: today, tz: 'Europe/Lisbon', granularity: 'day' },
      '/octo/bookings': { localDate: date },
      '/api/v2/ota/marketplace/availability/changes': { since: cursor, limit: '10' },
      '/api/v2/timeslots/{ActivityID}': { date: operatorDay },
    } as Record<string, Record<string, string>>,
  };
  for (const op of operations) if (op.path.endsWith('/booking')) op.body = bookingBody;
  // The OCTo bodies on the demo's own dates: the seeded timeslot, and the days around it.
  for (const op of operations.filter((candidate) => candidate.path.startsWith('/octo/'))) {
    const body = op.body;
    if (!body) continue;
    op.body = {
      ...body,
      ...('availabilityId' in body ? { availabilityId: slotId } : {}),
      ...('localDate' in body ? { localDate: date } : {}),
      ...('localDateStart' in body ? { localDateStart: date, localDateEnd: addDays(date, 6) } : {}),
    };
  }
  if (!operations.some((op) => op.path.startsWith('/octo/'))) throw new Error('The document has no OCTo routes');
  configure({ tableName: TABLE_NAME, dynamoEndpoint: host.dynamoEndpoint, localCredentials: LOCAL_CREDENTIALS });
  // Keys at the highest rate limit, so that the run reaches the handlers rather than the token bucket.
  const key = (await createApiKey(DEMO_OPERATOR.OperatorID, Object.keys(SCOPES) as Scope[], 'fuzz: every scope', MAX_KEY_LIMITS)).secret;
  const narrowKey = (await createApiKey(DEMO_OPERATOR.OperatorID, ['usage:read'], 'fuzz: usage:read only', MAX_KEY_LIMITS)).secret;

  const rng = random(SEED);
  const hostHeader = new URL(host.url).host;
  const cases: FuzzCase[] = [
    ...operations.flatMap((op) => apiCases(op, { host: hostHeader, key, narrowKey, valid }, rng, RANDOM_PER_OPERATION)),
    ...edgeCases(hostHeader),
    ...busCases(rng, 400, 'no-such-operator', hostHeader),
    ...kmsCases(rng, 100, hostHeader),
  ];

  const counts = new Map<string, number>();
  const count = (label: string) => counts.set(label, (counts.get(label) ?? 0) + 1);
  const violations: string[] = [];
  const written = {
    bookings: new Set<string>([seedBooking.BookingReference, seededReservation.id as string]),
    usage: new Set<number>(),
    keys: new Set<string>(),
  };
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < cases.length) {
        const fuzzCase = cases[next++];
        const responses = await rawExchange(host.url, fuzzCase.bytes, { timeoutMs: 20_000 }).catch(() => []);
        count(`${fuzzCase.kind} ${responses[0]?.status ?? 'no answer'}`);
        const fault = violation(fuzzCase, responses);
        if (fault) violations.push(`${fuzzCase.label}: ${fault}`);
        const [first] = responses;
        if (first?.status === 201 && fuzzCase.write === 'booking') written.bookings.add(first.json.data.BookingReference);
        // A reservation's 200 is a booking; a mutation that turned the request into a list (GET) answers an array.
        if (first?.status === 200 && fuzzCase.write === 'octo-booking' && typeof first.json?.id === 'string')
          written.bookings.add(first.json.id);
        if (first?.status === 201 && fuzzCase.write === 'usage') written.usage.add(first.json.data.ID);
        // A batch some of whose entries a usage limit refused answers 409 with every entry's outcome: the others were written.
        const batchEntries = first?.status === 201 ? first.json.data.Entries : first?.status === 409 ? first.json?.Entries : undefined;
        if (fuzzCase.write === 'usage-batch' && batchEntries) {
          // Each new entry of a batch is written with the record of its Identifier, when it has one.
          for (const entry of batchEntries as { ID?: number; Identifier?: string; Replayed?: boolean }[]) {
            if (entry.ID === undefined) continue;
            written.usage.add(entry.ID);
            if (entry.Identifier !== undefined && !entry.Replayed) written.keys.add(`usage-batch:${entry.Identifier}`);
          }
        }
        if (first?.status === 201 && fuzzCase.idempotencyKey !== undefined && first.headers['idempotent-replayed'] !== 'true')
          written.keys.add(`${fuzzCase.write}:${fuzzCase.idempotencyKey}`);
        // A timeslot's cancellation keeps its Idempotency-Key's record once complete.
        const cancellation = fuzzCase.write === 'timeslot-cancellation' && first?.status === 200 ? first.json.data : undefined;
        if (
          cancellation?.Timeslot.Cancellation.Complete &&
          fuzzCase.idempotencyKey !== undefined &&
          first?.headers['idempotent-replayed'] !== 'true'
        )
          written.keys.add(`${fuzzCase.write}:${fuzzCase.idempotencyKey}`);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;

  // The audit: every item a request could write is accounted for by a 2xx.
  const items = await scanTable(db);
  const added = items.filter((item) => !before.has(itemKey(item)));
  const bookings = added.filter((item) => item.SK === 'BOOKING');
  const entries = added.filter((item) => String(item.SK).startsWith('ENTRY#'));
  const idempotency = added.filter((item) => item.SK === 'IDEMPOTENCY');
  // Places are checked over the whole table: the history's bookings hold theirs too.
  const booked = items.filter((item) => String(item.SK).startsWith('SLOT#')).reduce((sum, item) => sum + Number(item.Booked ?? 0), 0);
  const confirmed = items
    .filter((item) => item.SK === 'BOOKING')
    .filter((item) => item.Status === 'CONFIRMED' || item.Status === 'ON_HOLD')
    .reduce((sum, item) => sum + Number(item.Participants), 0);
  const audit = [
    ['bookings in the table that no 201 announced', bookings.filter((item) => !written.bookings.has(String(item.BookingReference))).length],
    [
      '201 bookings missing from the table',
      [...written.bookings].filter((reference) => !bookings.some((item) => item.BookingReference === reference)).length,
    ],
    ['usage entries in the table that no 201 announced', entries.filter((item) => !written.usage.has(Number(item.ID))).length],
    ['201 usage entries missing from the table', [...written.usage].filter((id) => !entries.some((item) => Number(item.ID) === id)).length],
    ['idempotency records beyond the keys of 201s', Math.max(0, idempotency.length - written.keys.size)],
    ['places booked on timeslots minus places of confirmed and held bookings', booked - confirmed],
  ] as const;
  for (const [what, n] of audit) if (n !== 0) violations.push(`audit: ${n} ${what}`);

  const health = await fetch(`${host.url}/health`)
    .then((r) => r.status)
    .catch(() => 0);
  if (health !== 200 || !host.alive()) violations.push(`host not alive after the run (health ${health})`);
  const escaped = (host.output().match(/Local host: (uncaught exception|unhandled rejection)/g) ?? []).length;
  if (escaped) violations.push(`${escaped} errors escaped to the last-resort guard`);
  const exitCode = await host.stop();
  if (exitCode !== 0) violations.push(`the host did not stop cleanly on SIGTERM (exit code ${exitCode})`);

  console.log(
    `Requests: ${cases.length} in ${seconds.toFixed(1)} s (seed ${SEED}, ${operations.length} operations, concurrency ${CONCURRENCY})`,
  );
  for (const [label, n] of [...counts].sort()) console.log(`  ${label.padEnd(16)} ${n}`);
  console.log(
    `Writes answered 2xx: ${written.bookings.size - 2} bookings (marketplace and OCTo), ${written.usage.size} usage entries, ${written.keys.size} Idempotency-Keys`,
  );
  console.log(
    `Audit: ${bookings.length} bookings, ${entries.length} usage entries, ${idempotency.length} idempotency records, ${booked} places booked`,
  );
  console.log(`Host alive after: ${health === 200 && escaped === 0 ? 'yes' : 'NO'}`);
  console.log(`Violations: ${violations.length}`);
  for (const line of violations.slice(0, 30)) console.log(`  ${line}`);
  process.exit(violations.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
