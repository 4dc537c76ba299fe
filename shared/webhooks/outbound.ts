import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTargets } from '../core/config';
import { CONNECT_TIMEOUT_MS } from './schedule';
import { connectionRefusal, isAllowedAddress, type WebhookRule } from './targets';

/**
 * The sender's one outbound call: a POST that connects only to addresses
 * and ports the SSRF rule allows (the URL's literal and port checked again
 * before each attempt, every resolved address on the connection itself),
 * follows no redirects, sends only the headers it is given, and gives up
 * after `timeoutMs` for the whole exchange, or `connectTimeoutMs` for the
 * connection (the name's lookup included).
 */
export type PostOutcome = { ok: true; status: number } | { ok: false; error: string };

function guardedLookup(targets: WebhookTargets): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !isAllowedAddress(entry.address, targets));
      if (refused || !addresses.length) {
        const failure = Object.assign(new Error(`${hostname} resolves to a refused address`), { code: 'EREFUSEDADDRESS' });
        return callback(failure, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  rule: WebhookRule,
  timeoutMs: number,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Promise<PostOutcome> {
  const target = new URL(url);
  // An IP literal is connected to without a lookup, so it is checked here, with the port.
  const refusal = connectionRefusal(target, rule);
  if (refusal) return Promise.resolve({ ok: false, error: refusal });
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: guardedLookup(rule.webhookTargets),
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (response) => {
        // The answer's body means nothing here; it is read only to let the connection finish.
        response.resume();
        response.on('end', () => resolve({ ok: true, status: response.statusCode ?? 0 }));
        response.on('error', (error) => resolve({ ok: false, error: error.message }));
      },
    );
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const tooLong = setTimeout(() => request.destroy(new Error(`no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
      const done = () => clearTimeout(tooLong);
      socket.once('connect', done);
      socket.once('close', done);
    });
    request.on('error', (error) =>
      resolve({ ok: false, error: error.name === 'AbortError' ? `no answer within ${timeoutMs} ms` : error.message }),
    );
    request.end(body);
  });
}
