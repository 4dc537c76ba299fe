import { createServer } from 'node:http';
import { post } from '../../shared/webhooks/outbound';
import { DELIVERY_WINDOW_MS, nextAttemptAfterFailure, retryDelayMs } from '../../shared/webhooks/schedule';
import { isAllowedAddress, webhookUrlProblem } from '../../shared/webhooks/targets';

describe('the SSRF rule', () => {
  test.each([
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
  ])('refuses %s on AWS', (address) => {
    expect(isAllowedAddress(address, 'public-https')).toBe(false);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(isAllowedAddress(address, 'public-https')).toBe(true);
  });

  test('loopback-http adds loopback addresses and nothing else', () => {
    expect(isAllowedAddress('127.0.0.1', 'loopback-http')).toBe(true);
    expect(isAllowedAddress('::1', 'loopback-http')).toBe(true);
    expect(isAllowedAddress('10.0.0.1', 'loopback-http')).toBe(false);
    expect(isAllowedAddress('169.254.169.254', 'loopback-http')).toBe(false);
    expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', 'loopback-http')).toBeUndefined();
    expect(webhookUrlProblem('http://[::1]:8080/hooks', 'loopback-http')).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', 'public-https')).toBe('must be an https URL');
    expect(webhookUrlProblem('https://partner.example.com/hooks', 'public-https')).toBeUndefined();
  });

  test('checks every address a name resolves to on the connection itself, so a name for a private address is refused at delivery', async () => {
    // localhost resolves (from the hosts file) to a loopback address, which only the local setting allows.
    const receiver = createServer((_, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    try {
      const refused = await post(`http://localhost:${port}/hooks`, '{}', {}, 'public-https', 1000);
      expect(refused).toEqual({ ok: false, error: 'localhost resolves to a refused address' });
      const literal = await post(`http://127.0.0.1:${port}/hooks`, '{}', {}, 'public-https', 1000);
      expect(literal).toEqual({ ok: false, error: '127.0.0.1 is a refused address' });
      expect(await post(`http://127.0.0.1:${port}/hooks`, '{}', {}, 'loopback-http', 1000)).toEqual({ ok: true, status: 204 });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('the outbound call', () => {
  test('gives up on a receiver that does not answer in time, and follows no redirect', async () => {
    const paths: string[] = [];
    const receiver = createServer((request, response) => {
      paths.push(request.url ?? '');
      // '/slow' never answers; '/moved' points elsewhere.
      if (request.url === '/moved') response.writeHead(302, { Location: '/elsewhere' }).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    try {
      expect(await post(`http://127.0.0.1:${port}/slow`, '{}', {}, 'loopback-http', 200)).toEqual({
        ok: false,
        error: 'no answer within 200 ms',
      });
      expect(await post(`http://127.0.0.1:${port}/moved`, '{}', {}, 'loopback-http', 1000)).toEqual({ ok: true, status: 302 });
      expect(paths).toEqual(['/slow', '/moved']);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('the retry schedule', () => {
  test('waits 1, 4, 16, 64 minutes, then 4 h 16 min, then 8 h at most', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((failed) => retryDelayMs(failed) / 60_000)).toEqual([1, 4, 16, 64, 256, 480, 480]);
  });

  test('makes the last attempt 24 hours after the event, and none after', () => {
    const created = new Date('2026-07-01T00:00:00Z');
    const late = new Date(created.getTime() + DELIVERY_WINDOW_MS - 60_000);
    expect(nextAttemptAfterFailure(created, 8, late)).toEqual(new Date(created.getTime() + DELIVERY_WINDOW_MS));
    expect(nextAttemptAfterFailure(created, 9, new Date(created.getTime() + DELIVERY_WINDOW_MS))).toBeUndefined();
  });
});
