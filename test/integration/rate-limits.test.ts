import type { LocalHost } from '../../lib/local/host';
import { startLocalHost } from '../../lib/local/host';
import { createApiKey, setApiKeyLimits } from '../../shared/accounts/api-keys';
import { manualClock } from '../../shared/core/clock';
import { OPENAPI_THROTTLING } from '../../shared/api/gateway';
import { OPENAPI_PATH } from '../../shared/http/openapi';
import { createTestOperator, httpClient, type HttpClient, type TestOperator } from '../support/fixtures';

const PRODUCTS = '/api/v2/ota/marketplace/products';
const clock = manualClock(new Date('2026-06-01T09:00:00Z'));

let host: LocalHost;
let request: HttpClient;
let partner: TestOperator;
let otherPartner: TestOperator;

beforeAll(async () => {
  [partner, otherPartner] = await Promise.all([createTestOperator(), createTestOperator()]);
  // The authorizer's answers (with the key's limits) are cached for the whole file, as API Gateway caches them.
  host = await startLocalHost({ clock, authorizerCacheTtlSeconds: 300 });
  request = httpClient(host);
});

afterAll(() => host.close());

const keyLimitedTo = async (operator: TestOperator, rateLimit: number, burstLimit: number) =>
  (await createApiKey(operator.operatorId, ['ota'], 'limited', { rateLimit, burstLimit })).secret;

const statuses = (responses: { status: number }[]) => responses.map((response) => response.status);

describe('per-key rate limits on the local host', () => {
  it('lets a key limited to 5 requests/s with burst 10 send 10 at once, throttles the rest, and spares another key', async () => {
    const limited = await keyLimitedTo(partner, 5, 10);
    const other = await keyLimitedTo(otherPartner, 5, 10);

    const burst = await Promise.all(Array.from({ length: 15 }, () => request('GET', PRODUCTS, { key: limited })));
    const sameMoment = await Promise.all(Array.from({ length: 10 }, () => request('GET', PRODUCTS, { key: other })));

    expect(statuses(burst).filter((status) => status === 200)).toHaveLength(10);
    expect(statuses(burst).filter((status) => status === 429)).toHaveLength(5);
    expect(statuses(sameMoment)).toEqual(Array(10).fill(200));
  });

  it('answers 429 as problem+json with Retry-After and the IETF RateLimit fields', async () => {
    const limited = await keyLimitedTo(partner, 5, 10);
    for (let i = 0; i < 10; i += 1) expect((await request('GET', PRODUCTS, { key: limited })).status).toBe(200);

    const throttled = await request('GET', PRODUCTS, { key: limited });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('content-type')).toBe('application/problem+json');
    expect(throttled.json).toMatchObject({
      status: 429,
      title: 'Too Many Requests',
      instance: PRODUCTS,
      type: expect.stringMatching(/rate-limited$/),
    });
    // One token comes back in 0.2 s; Retry-After counts whole seconds.
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(throttled.headers.get('ratelimit-policy')).toBe('"per-key";q=10;w=2');
    expect(throttled.headers.get('ratelimit')).toBe('"per-key";r=0;t=2');
  });

  it('refills the bucket at the key’s rate as time passes', async () => {
    const limited = await keyLimitedTo(partner, 5, 10);
    const first = await request('GET', PRODUCTS, { key: limited });
    expect(first.headers.get('ratelimit')).toBe('"per-key";r=9;t=1');
    for (let i = 0; i < 9; i += 1) await request('GET', PRODUCTS, { key: limited });
    expect((await request('GET', PRODUCTS, { key: limited })).status).toBe(429);

    clock.advance(1000);
    const refilled = await Promise.all(Array.from({ length: 6 }, () => request('GET', PRODUCTS, { key: limited })));
    expect(statuses(refilled).sort()).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('applies new limits once the cached authorization of the key expires', async () => {
    const operator = await createTestOperator();
    const secret = await createApiKey(operator.operatorId, ['ota'], 'raised', { rateLimit: 1, burstLimit: 1 });
    const fresh = await startLocalHost({ clock, authorizerCacheTtlSeconds: 0 });
    const send = httpClient(fresh);
    try {
      expect(statuses([await send('GET', PRODUCTS, { key: secret.secret }), await send('GET', PRODUCTS, { key: secret.secret })])).toEqual([
        200, 429,
      ]);
      await setApiKeyLimits(operator.operatorId, secret.record.KeyID, { rateLimit: 1, burstLimit: 3 });
      clock.advance(1000);
      const after = await Promise.all(Array.from({ length: 4 }, () => send('GET', PRODUCTS, { key: secret.secret })));
      // The bucket keeps its tokens (one refilled) and may now hold up to three.
      expect(statuses(after).sort()).toEqual([200, 429, 429, 429]);
      clock.advance(3000);
      const full = await Promise.all(Array.from({ length: 4 }, () => send('GET', PRODUCTS, { key: secret.secret })));
      expect(statuses(full).sort()).toEqual([200, 200, 200, 429]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the public OpenAPI document on the local host', () => {
  it("has a throttle of its own, as the stage's method setting: its burst at once, then 429, refilled at its rate; keyed routes are spared", async () => {
    const documentHost = await startLocalHost({ clock });
    const send = httpClient(documentHost);
    try {
      const { burstLimit, rateLimit } = OPENAPI_THROTTLING;
      const flood = await Promise.all(Array.from({ length: burstLimit + 5 }, () => send('GET', OPENAPI_PATH)));
      expect(statuses(flood).filter((status) => status === 200)).toHaveLength(burstLimit);
      const throttled = flood.find((response) => response.status === 429)!;
      expect(throttled.headers.get('content-type')).toBe('application/problem+json');
      expect(throttled.json).toMatchObject({ status: 429, instance: OPENAPI_PATH, type: expect.stringMatching(/rate-limited$/) });
      expect(throttled.headers.get('retry-after')).toBe('1');
      // The callers of the document share its bucket, not a key's: a partner's requests go through meanwhile.
      expect((await send('GET', PRODUCTS, { key: partner.key })).status).toBe(200);

      clock.advance(1000);
      const refilled = await Promise.all(Array.from({ length: rateLimit + 1 }, () => send('GET', OPENAPI_PATH)));
      expect(statuses(refilled).filter((status) => status === 200)).toHaveLength(rateLimit);
    } finally {
      await documentHost.close();
    }
  });
});
