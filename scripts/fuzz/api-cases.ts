import { rawRequest } from './raw-http';
import {
  deep,
  HOSTILE_JSON_VALUES,
  HOSTILE_STRINGS,
  INEXACT_NUMBERS,
  PROTOTYPE_NAMES,
  type FuzzCase,
  type FuzzContext,
  type Operation,
  type random,
  type Write,
} from './hostile-values';

/**
 * The hostile requests of `npm run fuzz` for one operation of the OpenAPI
 * document, as bytes: mutations of a valid request (authorization, path and
 * query values and names, headers, body fields and raw bodies, request
 * targets, methods) and random combinations of them.
 */

interface Parts {
  method: string;
  target: string;
  headers: [string, string][];
  body?: string | Buffer;
  tail?: string;
}

const encode = (value: string) => (/%/.test(value) ? value : encodeURIComponent(value));

function target(op: Operation, path: Record<string, string>, query: [string, string][]): string {
  const filled = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(path[name] ?? ''));
  const search = query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  return search ? `${filled}?${search}` : filled;
}

const bytesOf = (host: string, parts: Parts) =>
  Buffer.concat([
    rawRequest(parts.method, parts.target, [['Host', host], ...parts.headers, ['Connection', 'close']], parts.body),
    Buffer.from(parts.tail ?? '', 'latin1'),
  ]);

/** Every field path of a JSON body, nested objects and the first array member included. */
function fieldPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.length ? [[...prefix, 0], ...fieldPaths(value[0], [...prefix, 0])] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...fieldPaths(child, [...prefix, key])]);
}

function withField(body: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  if (remove) delete node[path.at(-1) as string];
  else node[path.at(-1) as string] = value;
  return copy;
}

/**
 * The operations whose 201 (an OCTo reservation's 200, a timeslot cancellation's 200 with its Idempotency-Key) the
 * audit follows; the others' writes (cancel, confirm, webhook settings, timeslot changes) change items it does not count.
 */
const WRITES: Record<string, Write | undefined> = {
  'POST /api/v2/ota/marketplace/booking': 'booking',
  'POST /octo/bookings': 'octo-booking',
  'POST /api/v2/usage/meters': 'usage',
  'POST /api/v2/usage/meters/batch': 'usage-batch',
  'POST /api/v2/timeslots/{ActivityID}/{Date}/{Time}/cancel': 'timeslot-cancellation',
};

export function apiCases(op: Operation, context: FuzzContext, rng: ReturnType<typeof random>, randomCount: number): FuzzCase[] {
  const write = WRITES[`${op.method} ${op.path}`];
  const validQuery = Object.entries(context.valid.query[op.path] ?? {});
  const auth: [string, string] = ['Authorization', `Bearer ${context.key}`];
  const json: [string, string] = ['Content-Type', 'application/json'];
  const base = (): Parts => ({
    method: op.method,
    target: target(op, context.valid.path, validQuery),
    headers: op.body ? [auth, json] : [auth],
    body: op.body ? JSON.stringify(op.body) : undefined,
  });
  const cases: FuzzCase[] = [];
  const add = (label: string, parts: Parts, mustRefuse?: string) =>
    cases.push({
      kind: 'api',
      label: `${op.method} ${op.path} ${label}`,
      bytes: bytesOf(context.host, parts),
      write,
      head: parts.method === 'HEAD',
      octo: op.path.startsWith('/octo/'),
      idempotencyKey: parts.headers.filter(([name]) => name.toLowerCase() === 'idempotency-key').at(-1)?.[1],
      mustRefuse,
    });

  const authValues = [
    '',
    'Bearer',
    'Bearer ',
    'Bearer x',
    `Basic ${context.key}`,
    `bearer ${context.key}`,
    `Bearer  \t ${context.key}`,
    `Bearer ${context.key}x`,
    `Bearer ${context.narrowKey}`,
    `Bearer ${'k'.repeat(15_000)}`,
    `Bearer ${context.key} extra`,
  ];
  for (const value of authValues)
    add(`Authorization=${value.slice(0, 20)}`, {
      ...base(),
      headers: [
        ...base().headers.filter(([n]) => n !== 'Authorization'),
        ...(value ? ([['Authorization', value]] as [string, string][]) : []),
      ],
    });
  for (const name of op.pathParameters)
    for (const value of HOSTILE_STRINGS)
      add(`path ${name}=${value.slice(0, 20)}`, { ...base(), target: target(op, { ...context.valid.path, [name]: value }, validQuery) });
  for (const { name } of op.query) {
    for (const value of HOSTILE_STRINGS)
      add(`query ${name}=${value.slice(0, 20)}`, {
        ...base(),
        target: target(op, context.valid.path, [...validQuery.filter(([n]) => n !== name), [name, value]]),
      });
    add(`query ${name} missing`, {
      ...base(),
      target: target(
        op,
        context.valid.path,
        validQuery.filter(([n]) => n !== name),
      ),
    });
    add(`query ${name} twice`, {
      ...base(),
      target: target(op, context.valid.path, [...validQuery, [name, 'x'], [name, validQuery.find(([n]) => n === name)?.[1] ?? 'y']]),
    });
  }
  for (const name of PROTOTYPE_NAMES) {
    add(`query name ${name}`, { ...base(), target: target(op, context.valid.path, [...validQuery, [name, '1']]) });
    add(`header name ${name}`, { ...base(), headers: [...base().headers, [name, '1']] });
  }
  for (const suffix of ['/', '//', '/..', '%zz', '?', '??=', '#x', '/%2e%2e'])
    add(`target +${suffix}`, { ...base(), target: base().target.replace(/\?|$/, (m) => `${suffix}${m}`) });
  for (const prefix of ['/', '//', '//x:99999', '/%zz']) add(`target ${prefix}+`, { ...base(), target: `${prefix}${base().target}` });
  for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'GET', 'POST'])
    if (method !== op.method) add(`method ${method}`, { ...base(), method });
  add('Expect: junk', { ...base(), headers: [...base().headers, ['Expect', 'junk']] });

  if (op.body) {
    for (const path of fieldPaths(op.body)) {
      add(`body -${path.join('.')}`, { ...base(), body: JSON.stringify(withField(op.body, path, undefined, true)) });
      for (const value of HOSTILE_JSON_VALUES)
        add(`body ${path.join('.')}=${JSON.stringify(value)?.slice(0, 20)}`, {
          ...base(),
          body: JSON.stringify(withField(op.body, path, value)),
        });
      for (const number of INEXACT_NUMBERS)
        add(
          `body ${path.join('.')}=${number}`,
          { ...base(), body: JSON.stringify(withField(op.body, path, '@NUMBER@')).replace('"@NUMBER@"', number) },
          'a number that would not be read as written',
        );
      add(`body ${path.join('.')} deep`, {
        ...base(),
        body: JSON.stringify(withField(op.body, path, '@DEEP@')).replace('"@DEEP@"', deep(10_000)),
      });
    }
    for (const name of PROTOTYPE_NAMES)
      add(`body key ${name}`, { ...base(), body: JSON.stringify(op.body).replace(/^\{/, `{"${name}":{"x":1},`) });
    const valid = JSON.stringify(op.body);
    const rawBodies: [string, string | Buffer][] = [
      ['empty', ''],
      ['null', 'null'],
      ['array', '[]'],
      ['string', '"x"'],
      ['not JSON', '{'],
      ['deep', deep(100_000)],
      ['BOM', `\ufeff${valid}`],
      ['invalid UTF-8', Buffer.concat([Buffer.from(valid.slice(0, -2)), Buffer.from([0xc3, 0x28]), Buffer.from(valid.slice(-2))])],
      ['duplicate keys', valid.replace(/^\{/, '{"Usage":-1,"Participants":-1,')],
      ['trailing comma', `${valid.slice(0, -1)},}`],
      ['two documents', `${valid}${valid}`],
    ];
    for (const [label, body] of rawBodies) add(`raw body ${label}`, { ...base(), body });
    for (const type of [
      '',
      'text/plain',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/jsonx',
      'application/problem+json',
      'multipart/form-data; boundary=x',
    ])
      add(`Content-Type ${type}`, { ...base(), headers: [auth, ...(type ? ([['Content-Type', type]] as [string, string][]) : [])] });
    for (const value of ['', ' ', 'é', 'k'.repeat(256), 'k'.repeat(255), 'a\tb', `fuzz-${rng.next()}`])
      add(`Idempotency-Key ${value.slice(0, 10)}`, { ...base(), headers: [...base().headers, ['Idempotency-Key', value]] });
    add('stray byte after a valid body', { ...base(), tail: 'x' });
    add('body over 6 MB', { ...base(), body: `{"Meter":"${'m'.repeat(7 * 1024 * 1024)}"}` });
  }

  // Random combinations: one to three mutations of the kinds above on the valid request.
  for (let i = 0; i < randomCount; i += 1) {
    const parts = base();
    const query = [...validQuery];
    let body = op.body;
    for (let m = 1 + Math.floor(rng.next() * 3); m > 0; m -= 1) {
      const choice = rng.next();
      if (choice < 0.25 && op.query.length)
        query.push([rng.pick([...op.query.map((q) => q.name), ...PROTOTYPE_NAMES]), rng.pick(HOSTILE_STRINGS)]);
      else if (choice < 0.45)
        parts.headers.push([
          rng.pick([...PROTOTYPE_NAMES, 'Idempotency-Key', 'X-Forwarded-For', 'Content-Length-X']),
          rng.pick(HOSTILE_STRINGS).replace(/[^\x20-\x7e]/g, '?') || 'v',
        ]);
      else if (choice < 0.75 && body)
        body = withField(body, rng.pick(fieldPaths(body)), rng.pick(HOSTILE_JSON_VALUES)) as Record<string, unknown>;
      else if (op.pathParameters.length)
        parts.target = target(op, { ...context.valid.path, [rng.pick(op.pathParameters)]: rng.pick(HOSTILE_STRINGS) }, query);
    }
    if (!op.pathParameters.length || !parts.target.includes('%')) parts.target = target(op, context.valid.path, query);
    add(`random #${i}`, { ...parts, body: body ? JSON.stringify(body) : undefined });
  }
  return cases;
}
