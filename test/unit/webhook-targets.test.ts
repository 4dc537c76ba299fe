import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parseWebhookPorts } from '../../shared/core/config';
import { post } from '../../shared/webhooks/outbound';
import { DELIVERY_WINDOW_MS, nextAttemptAfterFailure, retryDelayMs } from '../../shared/webhooks/schedule';
import { isAllowedAddress, webhookUrlProblem } from '../../shared/webhooks/targets';

const PUBLIC_RULE = { webhookTargets: 'public-https', webhookPorts: [443] } as const;
const LOOPBACK_RULE = { webhookTargets: 'loopback-http', webhookPorts: [443] } as const;

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
    '192.88.99.1',
    '255.255.255.255',
    // IPv6 addresses that embed an IPv4 one, each here the metadata service's 169.254.169.254 ...
    '::169.254.169.254',
    '::a9fe:a9fe',
    '::ffff:169.254.169.254',
    '::ffff:0:169.254.169.254',
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:5601:5601',
    // ... even a public one: the address is what is connected to, and only global unicast is.
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    // IPv6 outside global unicast (2000::/3), or reserved inside it.
    '::2',
    '100::1',
    'fec0::1',
    '2001:db8::1',
    '2001:2::1',
    '3fff::1',
    'ff02::1',
  ])('refuses %s on AWS', (address) => {
    expect(isAllowedAddress(address, 'public-https')).toBe(false);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001:81c::200e', '2001:4860:4860::8888'])(
    'allows the public address %s',
    (address) => {
      expect(isAllowedAddress(address, 'public-https')).toBe(true);
    },
  );

  test('refuses an IPv6 literal that embeds a private IPv4 address, as registered and as delivered', async () => {
    for (const url of ['https://[::169.254.169.254]/latest/meta-data', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[2002:a00:1::1]/']) {
      expect(webhookUrlProblem(url, PUBLIC_RULE)).toBe('must not point to a private, loopback, link-local or reserved address');
      expect(await post(url, '{}', {}, PUBLIC_RULE, 1000)).toEqual({ ok: false, error: expect.stringMatching(/is a refused address$/) });
    }
  });

  test('allows port 443 only, unless the operator configures more ports; checked as registered and as delivered', async () => {
    const more = { webhookTargets: 'public-https', webhookPorts: [443, 8443] } as const;
    expect(webhookUrlProblem('https://partner.example.com/hooks', PUBLIC_RULE)).toBeUndefined();
    expect(webhookUrlProblem('https://partner.example.com:443/hooks', PUBLIC_RULE)).toBeUndefined();
    expect(webhookUrlProblem('https://partner.example.com:8443/hooks', PUBLIC_RULE)).toBe('must use port 443');
    expect(webhookUrlProblem('https://partner.example.com:22/hooks', more)).toBe('must use one of the ports 443, 8443');
    expect(webhookUrlProblem('https://partner.example.com:8443/hooks', more)).toBeUndefined();
    // A URL registered while a port was allowed is refused at delivery once it is not: nothing is connected to.
    expect(await post('https://93.184.216.34:8443/hooks', '{}', {}, PUBLIC_RULE, 1000)).toEqual({
      ok: false,
      error: 'port 8443 is refused',
    });
  });

  test('loopback-http adds loopback addresses and nothing else', () => {
    expect(isAllowedAddress('127.0.0.1', 'loopback-http')).toBe(true);
    expect(isAllowedAddress('::1', 'loopback-http')).toBe(true);
    expect(isAllowedAddress('10.0.0.1', 'loopback-http')).toBe(false);
    expect(isAllowedAddress('169.254.169.254', 'loopback-http')).toBe(false);
    expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', LOOPBACK_RULE)).toBeUndefined();
    expect(webhookUrlProblem('http://[::1]:8080/hooks', LOOPBACK_RULE)).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1:8080/hooks', PUBLIC_RULE)).toBe('must be an https URL');
    expect(webhookUrlProblem('https://partner.example.com/hooks', PUBLIC_RULE)).toBeUndefined();
    expect(webhookUrlProblem('https://partner.example.com:8080/hooks', LOOPBACK_RULE)).toBe('must use port 443');
  });

  test('checks every address a name resolves to on the connection itself, so a name for a private address is refused at delivery', async () => {
    // localhost resolves (from the hosts file) to a loopback address, which only the local setting allows.
    const receiver = createServer((_, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as { port: number };
    try {
      // The receiver's port allowed, so that only the address it resolves to can refuse it.
      const refused = await post(`http://localhost:${port}/hooks`, '{}', {}, { ...PUBLIC_RULE, webhookPorts: [port] }, 1000);
      expect(refused).toEqual({ ok: false, error: 'localhost resolves to a refused address' });
      const literal = await post(`http://127.0.0.1:${port}/hooks`, '{}', {}, PUBLIC_RULE, 1000);
      expect(literal).toEqual({ ok: false, error: '127.0.0.1 is a refused address' });
      expect(await post(`http://127.0.0.1:${port}/hooks`, '{}', {}, LOOPBACK_RULE, 1000)).toEqual({ ok: true, status: 204 });
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
      expect(await post(`http://127.0.0.1:${port}/slow`, '{}', {}, LOOPBACK_RULE, 200)).toEqual({
        ok: false,
        error: 'no answer within 200 ms',
      });
      expect(await post(`http://127.0.0.1:${port}/moved`, '{}', {}, LOOPBACK_RULE, 1000)).toEqual({ ok: true, status: 302 });
      expect(paths).toEqual(['/slow', '/moved']);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

/**
 * A host that takes no more connections: a process listening with a backlog
 * of one that never accepts (its thread blocked), its queue filled, so the
 * kernel drops the next connection's packets, as a dead host does.
 */
async function hostDroppingConnections(): Promise<{ port: number; close: () => void }> {
  const listener = `const server = require('node:net').createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
});`;
  const child = spawn(process.execPath, ['-e', listener], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = Number(String((await once(child.stdout, 'data'))[0]).trim());
  const queued: Socket[] = [0, 1, 2].map(() => connect(port, '127.0.0.1').on('error', () => undefined));
  await Promise.all(queued.slice(0, 2).map((socket) => once(socket, 'connect')));
  return {
    port,
    close: () => {
      queued.forEach((socket) => socket.destroy());
      child.kill();
    },
  };
}

describe('the connection', () => {
  test("to a host that never completes it is given up after the connect timeout, not the whole attempt's", async () => {
    const host = await hostDroppingConnections();
    try {
      expect(await post(`http://127.0.0.1:${host.port}/hooks`, '{}', {}, LOOPBACK_RULE, 5_000, 300)).toEqual({
        ok: false,
        error: 'no connection within 300 ms',
      });
    } finally {
      host.close();
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

describe('WEBHOOK_PORTS', () => {
  test('lists the ports partners may use, and fails at once on anything else', () => {
    expect(parseWebhookPorts('443')).toEqual([443]);
    expect(parseWebhookPorts('443, 8443,443')).toEqual([443, 8443]);
    for (const value of ['', '0', '65536', 'https', '443;8443', '44.3', '-1']) {
      expect(() => parseWebhookPorts(value)).toThrow(`WEBHOOK_PORTS must be port numbers from 1 to 65535, comma-separated, not '${value}'`);
    }
  });
});
