import { startLocalHost, type LocalHost } from '../../lib/local/host';
import { createTestOperator, type TestOperator } from '../support/fixtures';
import { rawExchange, rawRequest, sigV4Authorization, type RawResponse } from '../../scripts/fuzz/raw-http';

/**
 * A page a developer opens can rebind its own name to 127.0.0.1 and then
 * send requests to the local host as a same-origin page: they arrive with
 * the page's name in Host. The host answers only requests that name it as
 * this machine (or as its HOST), over a real socket, for every part it
 * serves: the API, the dashboard, the docs and the event bus.
 */

let operator: TestOperator;
let host: LocalHost;
let port: number;

beforeAll(async () => {
  operator = await createTestOperator(undefined, { stem: 'host-names' });
  host = await startLocalHost({ eventBus: { retryDelaysMs: [1] } });
  port = Number(new URL(host.url).port);
});

afterAll(() => host.close());

const send = (target: string, name: string, headers: [string, string][] = [], body?: string, url = host.url) =>
  rawExchange(
    url,
    rawRequest(body === undefined ? 'GET' : 'POST', target, [['Host', name], ...headers, ['Connection', 'close']], body),
  ).then(([response]) => response);

const putEvent = (name: string, basket: string) =>
  send(
    '/',
    name,
    [
      ['X-Amz-Target', 'AWSEvents.PutEvents'],
      ['Content-Type', 'application/x-amz-json-1.1'],
      ['Authorization', sigV4Authorization()],
    ],
    JSON.stringify({
      Entries: [
        {
          Source: 'platform.orders',
          DetailType: 'Order Completed',
          Detail: JSON.stringify({ OperatorID: operator.operatorId, BasketID: basket }),
        },
      ],
    }),
  );

async function ordersRecorded(): Promise<number> {
  await host.eventBus.idle();
  const today = new Date().toISOString().slice(0, 10);
  const summary = await send(`/api/v2/usage/meters?from=${today}&to=${today}`, `127.0.0.1:${port}`, [
    ['Authorization', `Bearer ${operator.key}`],
  ]);
  return summary.json.data.Totals.Events;
}

function expectMisdirected(response: RawResponse, instance: string) {
  expect(response.status).toBe(421);
  expect(response.headers['content-type']).toBe('application/problem+json');
  expect(response.json).toMatchObject({ status: 421, title: 'Misdirected Request', instance, type: expect.stringMatching(/misdirected/) });
  expect(response.json.detail).toMatch(/localhost, 127\.0\.0\.1 or \[::1\]/);
}

const TARGETS = ['/health', '/api/v2/operator', '/dashboard/', '/docs'];

describe('the Host a request names', () => {
  it('is answered when it is a loopback name with the port', async () => {
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`]) {
      for (const target of TARGETS) {
        const response = await send(target, name, [['Authorization', `Bearer ${operator.key}`]]);
        expect({ name, target, status: response.status }).toEqual({ name, target, status: 200 });
      }
    }
  });

  it('is refused with 421 for any other name, or another port, by the API, the dashboard and the docs', async () => {
    const forged = [
      `attacker.example:${port}`,
      `127.0.0.1.attacker.example:${port}`,
      `localhost.:${port}`,
      'localhost',
      `localhost:${port + 1}`,
      `192.168.1.20:${port}`,
      '',
    ];
    for (const name of forged) {
      for (const target of TARGETS) expectMisdirected(await send(target, name, [['Authorization', `Bearer ${operator.key}`]]), target);
    }
  });

  it('keeps a rebinding page from posting billable platform events to the event bus', async () => {
    const refused = await putEvent(`attacker.example:${port}`, 'b_forged');
    expectMisdirected(refused, '/');
    expect(await ordersRecorded()).toBe(0);
    // The same call, naming the host as this machine, records the event: the refusal is the name's alone.
    expect((await putEvent(`localhost:${port}`, 'b_local')).status).toBe(200);
    expect(await ordersRecorded()).toBe(1);
  });

  it('accepts the configured HOST as a name as well', async () => {
    const other = await startLocalHost({ host: '127.0.0.2' });
    try {
      const otherPort = Number(new URL(other.url).port);
      expect((await send('/health', `127.0.0.2:${otherPort}`, [], undefined, other.url)).status).toBe(200);
      expect((await send('/health', `localhost:${otherPort}`, [], undefined, other.url)).status).toBe(200);
      expectMisdirected(await send('/health', `127.0.0.3:${otherPort}`, [], undefined, other.url), '/health');
    } finally {
      await other.close();
    }
  });
});
