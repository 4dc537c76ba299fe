import { BlockList, isIP } from 'node:net';
import type { WebhookTargets } from '../core/config';

/**
 * Where webhooks may go (the SSRF rule). A partner's URL must be https and
 * its host must not be, or resolve to, a private, loopback, link-local,
 * shared, multicast or reserved address, so that a registered URL can never
 * make the sender reach into the network it runs in (the cloud's metadata
 * service at 169.254.169.254 included). The URL is checked when registered,
 * and every address its name resolves to is checked again at each attempt,
 * on the very connection made (a name that later resolves elsewhere is
 * refused). Configured `loopback-http` (the local host, tests), http and
 * https to 127.0.0.1 and [::1] are allowed as well, and nothing else more.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
// IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are checked against the IPv4 subnets by BlockList itself.
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);
const isLoopback = (address: string) => address === '::1' || /^127\./.test(address);
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Whether the sender may connect to `address` (an IP literal). */
export function isAllowedAddress(address: string, targets: WebhookTargets): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (targets === 'loopback-http' && isLoopback(address)) return true;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why `value` cannot be a webhook URL (to follow "Field 'Url'"), or undefined when it can. */
export function webhookUrlProblem(value: string, targets: WebhookTargets): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment';
  const loopbackAllowed = targets === 'loopback-http' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) return 'must be an https URL';
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal)) {
    return isAllowedAddress(literal, targets) ? undefined : 'must not point to a private, loopback, link-local or reserved address';
  }
  if (!url.hostname.includes('.') || /\.(localhost|local|internal)$/i.test(url.hostname)) {
    return 'must name a public host';
  }
  return undefined;
}
