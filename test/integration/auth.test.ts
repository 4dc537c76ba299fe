import { startLocalHost, type LocalHost } from '../../lib/local/host';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../../shared/api/gateway';
import { manualClock } from '../../shared/core/clock';
import { revokeApiKey, listApiKeys } from '../../shared/accounts/api-keys';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, type HttpClient, type TestOperator } from '../support/fixtures';

const PRODUCTS = '/api/v2/ota/marketplace/products';

const clock = manualClock();
let host: LocalHost;
let request: HttpClient;
let operatorA: TestOperator;
let operatorB: TestOperator;

beforeAll(async () => {
  [operatorA, operatorB] = await Promise.all([createTestOperator(testCatalog()), createTestOperator()]);
  host = await startLocalHost({ clock });
  request = httpClient(host);
});

afterAll(() => host.close());

function expectUnauthorized(response: Awaited<ReturnType<HttpClient>>) {
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('www-authenticate')).toBe('Bearer');
  expect(response.json).toMatchObject({
    status: 401,
    title: 'Unauthorized',
    instance: PRODUCTS,
    type: expect.stringMatching(/unauthorized$/),
  });
}

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate for a missing, malformed or unknown key', async () => {
    expectUnauthorized(await request('GET', PRODUCTS));
    expectUnauthorized(await request('GET', PRODUCTS, { headers: { Authorization: operatorA.key } }));
    expectUnauthorized(await request('GET', PRODUCTS, { headers: { Authorization: `Basic ${operatorA.key}` } }));
    expectUnauthorized(await request('GET', PRODUCTS, { key: 'ak_this-key-was-never-issued' }));
    expectUnauthorized(await request('GET', PRODUCTS, { key: `${operatorA.key}x` }));
  });

  it('accepts the scheme name in any case', async () => {
    expect((await request('GET', PRODUCTS, { headers: { Authorization: `bearer ${operatorA.key}` } })).status).toBe(200);
  });

  it('answers 403 problem+json for a valid key without the route scope', async () => {
    const usageOnly = await operatorA.keyWith(['usage:read', 'usage:write']);
    const response = await request('GET', PRODUCTS, { key: usageOnly });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json).toMatchObject({ status: 403, title: 'Forbidden', instance: PRODUCTS, detail: expect.stringMatching(/scope/) });
  });

  it('stops accepting a revoked key once its cached authorization expires', async () => {
    const key = await operatorA.keyWith(['ota']);
    expect((await request('GET', PRODUCTS, { key })).status).toBe(200);
    const [record] = (await listApiKeys(operatorA.operatorId)).filter((k) => k.Status === 'ACTIVE' && k.Scopes.join() === 'ota');
    await revokeApiKey(operatorA.operatorId, record.KeyID);
    // The host caches authorizations for AUTHORIZER_CACHE_TTL_SECONDS, as API Gateway does; its clock moves past that.
    clock.advance(AUTHORIZER_CACHE_TTL_SECONDS * 1000);
    expectUnauthorized(await request('GET', PRODUCTS, { key }));
    // Revoking again is harmless.
    await expect(revokeApiKey(operatorA.operatorId, record.KeyID)).resolves.toBeUndefined();
  });
});

describe('tenancy', () => {
  const start = tomorrow();

  it("shows operator B nothing of operator A's catalogue", async () => {
    const asB = (path: string) => request('GET', `/api/v2/ota${path}`, { key: operatorB.key });
    const asA = (path: string) => request('GET', `/api/v2/ota${path}`, { key: operatorA.key });

    expect((await asA('/marketplace/products')).json.data).toHaveLength(1);
    expect((await asB('/marketplace/products')).json.data).toEqual([]);

    const paths = [
      '/marketplace/resolve-product?ID=501',
      '/marketplace/resolve-product?Name=Harbour%20Walking%20Tour',
      `/marketplace/availability/s_walk1/dates?StartDate=${start}&EndDate=${start}`,
      `/marketplace/availability/s_walk1/timeslots?Date=${start}`,
      '/marketplace/questions/s_walk1',
      '/core/questions/s_walk1',
    ];
    for (const path of paths) {
      expect((await asA(path)).status).toBe(200);
      const response = await asB(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
  });
});
