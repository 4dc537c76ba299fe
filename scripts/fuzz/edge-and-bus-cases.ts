import { rawRequest, sigV4Authorization } from './raw-http';
import { deep, HOSTILE_JSON_VALUES, HOSTILE_STRINGS, PROTOTYPE_NAMES, type FuzzCase, type random } from './hostile-values';

/** The hostile requests of `npm run fuzz` at the edge of HTTP, and the PutEvents calls to the local bus. */

const FIVE_MB = Buffer.alloc(5 * 1024 * 1024, 'a');

/** `host` is the Host every request names (the host's own address and port), unless the case is about Host. */
export function edgeCases(host: string): FuzzCase[] {
  const raw = (label: string, text: string | Buffer, mustRefuse?: string): FuzzCase => ({
    kind: 'edge',
    label,
    bytes: Buffer.from(text),
    mustRefuse,
  });
  return [
    raw('not HTTP', 'HELLO\r\n\r\n'),
    raw('no Host', 'GET /health HTTP/1.1\r\nConnection: close\r\n\r\n'),
    raw('HTTP/1.0 without Host', 'GET /api/v2/ota/marketplace/products HTTP/1.0\r\n\r\n'),
    raw('forged Host', 'GET /health HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n', 'a forged Host'),
    raw(
      'forged Host on the event bus',
      rawRequest(
        'POST',
        '/',
        [
          ['Host', `attacker.example:${host.split(':').pop()}`],
          ['X-Amz-Target', 'AWSEvents.PutEvents'],
          ['Content-Type', 'application/x-amz-json-1.1'],
          ['Authorization', sigV4Authorization()],
          ['Connection', 'close'],
        ],
        '{"Entries":[{"Source":"platform.orders","DetailType":"Order Completed","Detail":"{}"}]}',
      ),
      'a forged Host',
    ),
    raw('HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
    raw('header overflow', `GET /health HTTP/1.1\r\nHost: ${host}\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`),
    raw('bad header name', `GET /health HTTP/1.1\r\nHost: ${host}\r\nBad Header: 1\r\nConnection: close\r\n\r\n`),
    raw('bad Content-Length', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nContent-Length: -1\r\n\r\n`),
    raw('two Content-Lengths', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}`),
    raw('bad chunk', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`),
    raw('Expect: junk', `GET /health HTTP/1.1\r\nHost: ${host}\r\nExpect: junk\r\nConnection: close\r\n\r\n`),
    raw('asterisk', `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    raw('absolute URL', `GET http://evil.example/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    ...[
      '//[',
      '//x:99999/',
      '//%zz/',
      '/%zz',
      '/docs/../dashboard',
      '/dashboard/..%2Fsite.ts',
      '/dashboard/%zz',
      '/api/v2/openapi.json?x=%zz',
      '/docs?constructor=1',
    ].map((t) => raw(`target ${t}`, `GET ${t} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)),
    raw('NUL in path', Buffer.from(`GET /he\u0000alth HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1')),
    raw('8-bit path', Buffer.from(`GET /h\u00e9alth HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1')),
    // Refused before the body is read, with megabytes still to come: the answer must arrive whole, not be reset away.
    ...[
      ['obs-fold', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nX-Folded: a\r\n b\r\n`],
      ['bare LF', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\nX-Bare: lf\r\n`],
      ['header overflow', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nX: ${'a'.repeat(20_000)}\r\n`],
      ['no Host', 'POST /api/v2/usage/meters HTTP/1.1\r\n'],
      ['no route', `POST /api/v2/nothing HTTP/1.1\r\nHost: ${host}\r\n`],
      ['bad percent-encoding', `POST /api/v2/usage/meters/%zz/void HTTP/1.1\r\nHost: ${host}\r\n`],
      ['Expect: junk', `POST /api/v2/usage/meters HTTP/1.1\r\nHost: ${host}\r\nExpect: junk\r\n`],
    ].map(([label, head]) =>
      raw(`${label} with a 5 MB body`, Buffer.concat([Buffer.from(`${head}Content-Length: ${FIVE_MB.length}\r\n\r\n`), FIVE_MB])),
    ),
  ];
}

export function busCases(rng: ReturnType<typeof random>, count: number, operatorId: string, host: string): FuzzCase[] {
  const entry = (fields: Record<string, unknown>) => ({
    Source: 'platform.orders',
    DetailType: 'Order Completed',
    Detail: JSON.stringify({ OperatorID: operatorId, BasketID: 'b_1' }),
    ...fields,
  });
  const hostileEntries: string[] = [
    `{"Entries":${deep(10_000)}}`,
    `{"Entries":[{"Source":"platform.orders","DetailType":"Order Completed","Detail":${JSON.stringify(`{"x":${deep(10_000)}}`)}}]}`,
    ...['Source', 'DetailType', 'Detail', 'EventBusName', 'Time', 'Resources', 'Extra'].map((field) =>
      JSON.stringify({ Entries: [entry({ [field]: '@DEEP@' })] }).replace('"@DEEP@"', deep(10_000)),
    ),
    '{',
    '',
    'null',
    '[]',
    '{"Entries":null}',
    '{"Entries":[]}',
    JSON.stringify({ Entries: Array.from({ length: 11 }, () => entry({})) }),
    '{"Entries":[1,"x",null,[]]}',
    JSON.stringify({ Entries: [entry({ Detail: 'x'.repeat(300_000) })] }),
    `{"Entries":[{"Source":"${'x'.repeat(1_100_000)}"}]}`,
  ];
  const cases: FuzzCase[] = [];
  const call = (
    label: string,
    body: string | Buffer,
    headers: [string, string][] = [['Authorization', sigV4Authorization()]],
    target = 'AWSEvents.PutEvents',
  ) =>
    cases.push({
      kind: 'bus',
      label: `PutEvents ${label}`,
      bytes: rawRequest(
        'POST',
        '/',
        [['Host', host], ['X-Amz-Target', target], ['Content-Type', 'application/x-amz-json-1.1'], ['Connection', 'close'], ...headers],
        body,
      ),
    });
  hostileEntries.forEach((body, i) => call(`hostile #${i}`, body));
  call('invalid UTF-8', Buffer.concat([Buffer.from('{"Entries":[{"Source":"'), Buffer.from([0xff]), Buffer.from('"}]}')]));
  for (const authorization of [
    '',
    'Bearer x',
    sigV4Authorization('AKIAEXAMPLE'),
    'AWS4-HMAC-SHA256 Credential=local',
    sigV4Authorization('local', 'zz'),
  ])
    call(
      `Authorization ${authorization.slice(0, 30)}`,
      JSON.stringify({ Entries: [entry({})] }),
      authorization ? [['Authorization', authorization]] : [],
    );
  call('unknown operation', JSON.stringify({}), [['Authorization', sigV4Authorization()]], 'AWSEvents.DeleteEventBus');
  for (let i = 0; i < count; i += 1) {
    const fields: Record<string, unknown> = {};
    for (let m = 1 + Math.floor(rng.next() * 3); m > 0; m -= 1)
      fields[rng.pick(['Source', 'DetailType', 'Detail', 'EventBusName', 'Time', 'Resources', ...PROTOTYPE_NAMES])] = rng.pick([
        ...HOSTILE_JSON_VALUES,
        ...HOSTILE_STRINGS.slice(0, 12),
      ]);
    // OperatorID of an operator that does not exist: an accepted event is dead-lettered, and writes nothing.
    call(
      `random #${i}`,
      JSON.stringify({ Entries: [entry({ Detail: JSON.stringify({ OperatorID: 'no-such-operator', BasketID: 'b' }), ...fields })] }),
    );
  }
  return cases;
}
