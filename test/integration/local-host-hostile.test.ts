// Long because it holds one regression per hostile request found against the local host, each over a real socket.
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { startLocalHost, type LocalHost } from '../../lib/local/host';
import { listApiKeys, revokeApiKey } from '../../shared/accounts/api-keys';
import { manualClock } from '../../shared/core/clock';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, type HttpClient, type TestOperator } from '../support/fixtures';
import { rawExchange, rawRequest, sigV4Authorization } from '../../scripts/fuzz/raw-http';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';

/**
 * Hostile requests against the local host, each over a real socket: what an
 * adversarial pass found, and what must hold for any request however built.
 */

const PRODUCTS = '/api/v2/ota/marketplace/products';
const USAGE = '/api/v2/usage/meters';
const BOOKING = '/api/v2/ota/marketplace/booking';
const TTL_SECONDS = 60;

const clock = manualClock(new Date());
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ capacity: 50 }), { stem: 'hostile' });
  host = await startLocalHost({
    authorizerCacheTtlSeconds: TTL_SECONDS,
    authorizerCacheMaxEntries: 5,
    clock,
    eventBus: { retryDelaysMs: [1] },
  });
  request = httpClient(host);
});

afterAll(async () => {
  await host.close();
});

/** The Host a request names: the host as it listens (another name is refused, local-host-names.test.ts). */
const hostHeader = () => new URL(host.url).host;

async function usageEvents(meter: string): Promise<number> {
  const day = new Date(clock().getTime()).toISOString().slice(0, 10);
  const today = new Date().toISOString().slice(0, 10);
  const response = await request('GET', `${USAGE}?from=${day < today ? day : today}&to=${day > today ? day : today}`, {
    key: operator.key,
  });
  return response.json.data.Meters.find((item: { Meter: string }) => item.Meter === meter)?.EventCount ?? 0;
}

const putEvents = (body: string | Buffer, authorization: string | null = sigV4Authorization()) =>
  rawExchange(
    host.url,
    rawRequest(
      'POST',
      '/',
      [
        ['Host', hostHeader()],
        ['X-Amz-Target', 'AWSEvents.PutEvents'],
        ['Content-Type', 'application/x-amz-json-1.1'],
        ['Connection', 'close'],
        ...(authorization ? ([['Authorization', authorization]] as [string, string][]) : []),
      ],
      body,
    ),
  ).then(([response]) => response);

describe('a deeply nested PutEvents entry', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('is accepted, dead-lettered and logged when its Detail is 10,000 deep, and the host keeps serving', async () => {
    const detail = `{"x":${deep(10_000)}}`;
    const { result: response, lines: logged } = await logsDuring(async () => {
      const answer = await putEvents(
        JSON.stringify({ Entries: [{ Source: 'platform.orders', DetailType: 'Order Completed', Detail: detail }] }),
      );
      await host.eventBus.idle();
      return answer;
    }, 'ERROR');
    expect(response.status).toBe(200);
    expect(response.json.FailedEntryCount).toBe(0);
    const letter = host.eventBus.deadLetters.find((dead) => dead.event.id === response.json.Entries[0].EventId);
    expect(letter?.attempts).toBe(2);
    expect(logged).toContainEqual(
      expect.objectContaining({ message: 'Dead letter: platform event not recorded', event: expect.stringMatching(/not serialisable/) }),
    );
    expect((await request('GET', '/health')).status).toBe(200);
  });

  // Built as text: the nesting is too deep for JSON.stringify, which is the point.
  const entryWith = (fields: string) => `{"Entries":[{"Source":"platform.orders","DetailType":"Order Completed","Detail":"{}",${fields}}]}`;

  it.each([
    ['Source', `"Source":${deep(10_000)}`],
    ['Resources', `"Resources":${deep(10_000)}`],
    ['Time', `"Time":{"at":${deep(10_000)}}`],
    ['the entry itself', null],
  ])('in %s is a 400 SerializationException', async (_, fields) => {
    const response = await putEvents(fields ? entryWith(fields) : `{"Entries":${deep(10_000)}}`);
    expect(response.status).toBe(400);
    expect(response.json.__type).toBe('SerializationException');
  });

  it('is ignored in a field PutEvents does not know, as EventBridge ignores unknown members', async () => {
    const response = await putEvents(entryWith(`"Extra":${deep(10_000)}`).replace('platform.orders', 'platform.elsewhere'));
    expect(response.status).toBe(200);
    expect(response.json.FailedEntryCount).toBe(0);
  });
});

describe('PutEvents needs the local credentials', () => {
  const body = JSON.stringify({ Entries: [{ Source: 'platform.elsewhere', DetailType: 'Other', Detail: '{}' }] });

  it.each([
    ['no Authorization', null, 'MissingAuthenticationTokenException'],
    ['a Bearer key', 'Bearer ak_something', 'IncompleteSignatureException'],
    ['a SigV4 header with another access key', sigV4Authorization('AKIAIOSFODNN7EXAMPLE'), 'UnrecognizedClientException'],
  ])('refuses %s with the error EventBridge gives', async (_, authorization, type) => {
    const response = await putEvents(body, authorization);
    expect(response.status).toBe(400);
    expect(response.json.__type).toBe(type);
  });

  it('takes the AWS SDK with the local credentials, and refuses it with others', async () => {
    const client = (accessKeyId: string) =>
      new EventBridgeClient({ endpoint: host.url, region: 'local', credentials: { accessKeyId, secretAccessKey: 'local' } });
    const command = new PutEventsCommand({ Entries: [{ Source: 'platform.elsewhere', DetailType: 'Other', Detail: '{}' }] });
    const local = client('local');
    const other = client('someone-else');
    await expect(local.send(command)).resolves.toMatchObject({ FailedEntryCount: 0 });
    await expect(other.send(command)).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    local.destroy();
    other.destroy();
  });
});

describe('names that objects inherit', () => {
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

  it.each(names)('as a query parameter (%s) changes nothing: 401 without a key, 200 with one', async (name) => {
    expect((await request('GET', `${PRODUCTS}?${name}=1`)).status).toBe(401);
    const answer = await request('GET', `${PRODUCTS}?${name}=1`, { key: operator.key });
    expect(answer.status).toBe(200);
  });

  it.each(names)('as a query parameter (%s) of a refused request leaves the query out of instance', async (name) => {
    const answer = await request('GET', `${USAGE}?${name}=1`, { key: operator.key });
    expect(answer.status).toBe(422);
    expect(answer.json.instance).toBe(USAGE);
  });

  it.each(names)('as a header name (%s) changes nothing', async (name) => {
    const [response] = await rawExchange(
      host.url,
      rawRequest('GET', PRODUCTS, [
        ['Host', hostHeader()],
        [name, '1'],
        ['Authorization', `Bearer ${operator.key}`],
        ['Connection', 'close'],
      ]),
    );
    expect(response.status).toBe(200);
    const [bodyRoute] = await rawExchange(
      host.url,
      rawRequest(
        'POST',
        USAGE,
        [
          ['Host', hostHeader()],
          [name, '1'],
          ['Authorization', `Bearer ${operator.key}`],
          ['Content-Type', 'application/json'],
          ['Connection', 'close'],
        ],
        JSON.stringify({ Meter: `inherit-${name.replace(/_/g, '')}`, Usage: 1 }),
      ),
    );
    expect(bodyRoute.status).toBe(201);
  });
});

describe('request targets that are not plain paths', () => {
  it.each(['//[', '//x:99999/', '//%zz/', '//example.com/api/v2/ota/marketplace/products'])('%s is a 404 problem', async (target) => {
    const [response] = await rawExchange(
      host.url,
      rawRequest('GET', target, [
        ['Host', hostHeader()],
        ['Connection', 'close'],
      ]),
    );
    expectProblem(response, 404, { instance: target });
  });

  it('an asterisk or an absolute URL is a 400 problem', async () => {
    for (const target of ['*', 'http://127.0.0.1/health']) {
      const [response] = await rawExchange(
        host.url,
        rawRequest('OPTIONS', target, [
          ['Host', hostHeader()],
          ['Connection', 'close'],
        ]),
      );
      expectProblem(response, 400, { instance: '/', octo: true });
    }
  });
});

describe('a stray byte after a valid write on the same connection', () => {
  it.each(['x', '}', '\u0000'])(
    'a usage entry followed by %j is written and answered 201, and the stray byte 400 after it',
    async (stray) => {
      const meter = `stray-${stray.charCodeAt(0)}`;
      const write = rawRequest(
        'POST',
        USAGE,
        [
          ['Host', hostHeader()],
          ['Authorization', `Bearer ${operator.key}`],
          ['Content-Type', 'application/json'],
        ],
        JSON.stringify({ Meter: meter, Usage: 1 }),
      );
      const responses = await rawExchange(host.url, Buffer.concat([write, Buffer.from(stray, 'latin1')]));
      expect(responses.map((response) => response.status)).toEqual([201, 400]);
      expect(responses[1].headers['content-type']).toBe('application/problem+json');
      expect(await usageEvents(meter)).toBe(1);
    },
  );

  it('a booking followed by a stray byte is answered with its own 201 first', async () => {
    const body = {
      ActivityID: 's_walk1',
      Date: tomorrow(),
      Time: '09:00',
      Participants: 1,
      Customer: { FirstName: 'Stray', LastName: 'Byte', Email: 'stray@example.com' },
    };
    const write = rawRequest(
      'POST',
      BOOKING,
      [
        ['Host', hostHeader()],
        ['Authorization', `Bearer ${operator.key}`],
        ['Content-Type', 'application/json'],
      ],
      JSON.stringify(body),
    );
    const responses = await rawExchange(host.url, Buffer.concat([write, Buffer.from('x')]));
    expect(responses.map((response) => response.status)).toEqual([201, 400]);
    const reference = responses[0].json.data.BookingReference;
    expect((await request('GET', `${BOOKING}/${reference}`, { key: operator.key })).status).toBe(200);
  });
});

describe("Node's own refusals are problems too", () => {
  it('Expect: junk is a 417 problem', async () => {
    const [response] = await rawExchange(
      host.url,
      rawRequest('GET', '/health', [
        ['Host', hostHeader()],
        ['Expect', 'junk'],
        ['Connection', 'close'],
      ]),
    );
    expectProblem(response, 417, { instance: '/health', octo: true });
  });

  it('an HTTP/1.1 request without Host is a 400 problem', async () => {
    const [response] = await rawExchange(host.url, 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expectProblem(response, 400, { instance: '/health', octo: true });
  });

  it('a body with a broken chunk is a 400 problem, and nothing of it is written', async () => {
    const head = `POST ${USAGE} HTTP/1.1\r\nHost: ${hostHeader()}\r\nAuthorization: Bearer ${operator.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const [response] = await rawExchange(host.url, `${head}1b\r\n{"Meter":"chunk","Usage":1}\r\nzz\r\n`);
    expectProblem(response, 400, { instance: '/', octo: true });
    expect(await usageEvents('chunk')).toBe(0);
  });

  it('a request line that is not HTTP is a 400 problem', async () => {
    const [response] = await rawExchange(host.url, 'HELLO\r\n\r\n');
    expectProblem(response, 400, { instance: '/', octo: true });
  });
});

describe('a body that is not UTF-8', () => {
  it('is refused with 400 malformed-json and writes nothing', async () => {
    const meter = 'not-utf8';
    const body = Buffer.concat([Buffer.from(`{"Meter":"${meter}","Usage":1,"ExtraInfo":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const [response] = await rawExchange(
      host.url,
      rawRequest(
        'POST',
        USAGE,
        [
          ['Host', hostHeader()],
          ['Authorization', `Bearer ${operator.key}`],
          ['Content-Type', 'application/json'],
          ['Connection', 'close'],
        ],
        body,
      ),
    );
    expectProblem(response, 400, { instance: USAGE, octo: true });
    expect(response.json.type).toMatch(/malformed-json$/);
    expect(await usageEvents(meter)).toBe(0);
  });
});

describe('the authorizer cache', () => {
  it('keeps one entry for whitespace variants of one key, none for refused keys, and at most its bound', async () => {
    const before = host.authorizerCacheSize();
    const key = await operator.keyWith(['ota']);
    for (let spaces = 1; spaces <= 200; spaces += 1) {
      const response = await request('GET', PRODUCTS, { headers: { Authorization: `Bearer${' '.repeat(spaces)}${key}` } });
      expect(response.status).toBe(200);
    }
    expect(host.authorizerCacheSize()).toBe(Math.min(before + 1, 5));
    for (let i = 0; i < 50; i += 1) expect((await request('GET', PRODUCTS, { key: `ak_never-issued-${i}` })).status).toBe(401);
    const keys = await Promise.all(Array.from({ length: 8 }, () => operator.keyWith(['ota'])));
    for (const other of keys) expect((await request('GET', PRODUCTS, { key: other })).status).toBe(200);
    expect(host.authorizerCacheSize()).toBe(5);
  });

  it('answers from the cache for a revoked key until the TTL has passed on the clock', async () => {
    const key = await operator.keyWith(['usage:read']);
    expect((await request('GET', `${USAGE}?from=2026-01-01&to=2026-01-01`, { key })).status).toBe(200);
    const record = (await listApiKeys(operator.operatorId)).find((item) => item.Status === 'ACTIVE' && item.Scopes.join() === 'usage:read');
    await revokeApiKey(operator.operatorId, record!.KeyID);
    clock.advance(TTL_SECONDS * 1000 - 1);
    expect((await request('GET', `${USAGE}?from=2026-01-01&to=2026-01-01`, { key })).status).toBe(200);
    clock.advance(1);
    expect((await request('GET', `${USAGE}?from=2026-01-01&to=2026-01-01`, { key })).status).toBe(401);
  });
});

describe('the local host', () => {
  it('listens on the loopback interface by default', () => {
    expect(host.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('serves /docs with the dashboard security headers and nothing from another origin', async () => {
    for (const path of ['/docs', '/docs/init.js', '/docs/redoc.standalone.js']) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      const text = await response.text();
      expect(text).not.toMatch(/cdn\.redoc\.ly/);
      if (path !== '/docs/redoc.standalone.js') expect(text).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    }
  });
});

describe('the OccurredAt limit and the summary limit', () => {
  it('accept the same last second: an entry at 9998-12-31T23:59:59Z is in the summary up to 9998-12-31, one a second later is refused', async () => {
    const last = Date.parse('9998-12-31T23:59:59Z') / 1000;
    const meter = 'last-second';
    expect((await request('POST', USAGE, { key: operator.key, body: { Meter: meter, Usage: 1, OccurredAt: last } })).status).toBe(201);
    const refused = await request('POST', USAGE, { key: operator.key, body: { Meter: meter, Usage: 1, OccurredAt: last + 1 } });
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toMatch(/'OccurredAt'/);
    const summary = await request('GET', `${USAGE}?from=9998-12-31&to=9998-12-31`, { key: operator.key });
    expect(summary.json.data.Meters).toEqual([{ Meter: meter, TotalUsage: 1, EventCount: 1 }]);
  });
});
