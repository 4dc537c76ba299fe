import { BlockList, isIP } from 'node:net';
import type { Config, WebhookTargets } from '../core/config';

/**
 * Where webhooks may go (the SSRF rule). A partner's URL must be https, on
 * an allowed port (443 unless the operator configures more: WEBHOOK_PORTS),
 * and its host must be, and resolve only to, global unicast addresses, so
 * that a registered URL can never make the sender reach into the network it
 * runs in (the cloud's metadata service at 169.254.169.254 included). The
 * rule allows what is global rather than refusing what is known to be
 * private: an IPv6 address that embeds an IPv4 one (IPv4-compatible
 * `::a.b.c.d`, mapped `::ffff:a.b.c.d`, translated `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`)
 * may reach the embedded address through a translator, so none is
 * connected to, whatever it embeds. The URL is checked when registered and
 * again at each attempt, and every address its name resolves to is checked
 * on the very connection made (a name that later resolves elsewhere is
 * refused). Configured `loopback-http` (the local host, tests), http and
 * https to 127.0.0.1 and [::1] on any port are allowed as well, and nothing else more.
 */

/** IPv4's special-purpose blocks (IANA's registry, RFC 6890): every other IPv4 address is global unicast. */
const notGlobalV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  notGlobalV4.addSubnet(network, prefix, 'ipv4');
}

/** IPv6 global unicast is 2000::/3 ... */
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
/** ... less its special-purpose blocks: IETF protocol assignments (Teredo, benchmarking, ORCHID), documentation, 6to4. */
const notGlobalV6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  notGlobalV6.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);
const isLoopback = (address: string) => address === '::1' || /^127\./.test(address);
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** What the rule depends on: which targets the deployment allows, and the ports. */
export type WebhookRule = Pick<Config, 'webhookTargets' | 'webhookPorts'>;

/** Whether `address` (an IP literal) is global unicast: the only addresses the sender connects to. */
function isGlobalUnicast(address: string): boolean {
  const family = isIP(address);
  // BlockList checks an IPv4-mapped IPv6 address against IPv4 subnets too; 2000::/3 holds no mapped address.
  if (family === 6) return globalV6.check(address, 'ipv6') && !notGlobalV6.check(address, 'ipv6');
  return family === 4 && !notGlobalV4.check(address, 'ipv4');
}

/** Whether the sender may connect to `address` (an IP literal). */
export function isAllowedAddress(address: string, targets: WebhookTargets): boolean {
  if (targets === 'loopback-http' && isIP(address) && isLoopback(address)) return true;
  return isGlobalUnicast(address);
}

const portRule = (ports: readonly number[]) =>
  ports.length === 1 ? `must use port ${ports[0]}` : `must use one of the ports ${ports.join(', ')}`;

/** The port a URL connects to: the scheme's when the URL names none (the URL parser drops a default port). */
export const portOf = (url: URL): number => Number(url.port || (url.protocol === 'http:' ? 80 : 443));

const hostLiteral = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Whether the URL's port is allowed: any for a loopback receiver where the setting allows one, else the configured ports. */
function isAllowedPort(url: URL, rule: WebhookRule): boolean {
  const loopbackReceiver = rule.webhookTargets === 'loopback-http' && LOOPBACK_HOSTS.has(url.hostname);
  return loopbackReceiver || rule.webhookPorts.includes(portOf(url));
}

/**
 * Why the sender must not connect for `url` now, or undefined: its IP
 * literal or its port, checked again at each attempt, since the ports
 * allowed may have changed since it was registered. The addresses a name
 * resolves to are checked on the connection itself (outbound.ts).
 */
export function connectionRefusal(url: URL, rule: WebhookRule): string | undefined {
  const literal = hostLiteral(url);
  if (isIP(literal) && !isAllowedAddress(literal, rule.webhookTargets)) return `${literal} is a refused address`;
  if (!isAllowedPort(url, rule)) return `port ${portOf(url)} is refused`;
  return undefined;
}

/** Why `value` cannot be a webhook URL (to follow "Field 'Url'"), or undefined when it can. */
export function webhookUrlProblem(value: string, rule: WebhookRule): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https URL';
  }
  if (value.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.hash) return 'must not have a #fragment';
  const loopbackAllowed = rule.webhookTargets === 'loopback-http' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) return 'must be an https URL';
  const literal = hostLiteral(url);
  if (isIP(literal) && !isAllowedAddress(literal, rule.webhookTargets)) {
    return 'must not point to a private, loopback, link-local or reserved address';
  }
  if (!isIP(literal) && (!url.hostname.includes('.') || /\.(localhost|local|internal)$/i.test(url.hostname))) {
    return 'must name a public host';
  }
  // A receiver on this machine listens where it can; a public one on the ports the operator allows.
  if (!isAllowedPort(url, rule)) return portRule(rule.webhookPorts);
  return undefined;
}
