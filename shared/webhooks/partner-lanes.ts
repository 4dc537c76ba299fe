import type { WebhookEndpointItem } from './model';
import { endpointKeyOf, getEndpoint, updateEndpoint } from './repository';
import { ATTEMPT_TIMEOUT_MS } from './schedule';

/**
 * How many of one partner's requests may be in flight at once, whichever
 * delivery lanes (stream batches) their attempts come from: a receiver that
 * accepts and never answers then holds at most this many lanes for an
 * attempt's 10 seconds, and every other partner's deliveries go on in the
 * rest. An attempt takes a lane of its endpoint (a lease on the endpoint
 * item) for its request only, and frees it as soon as the answer is in (or
 * the lease ends by itself, should the sender stop). When every lane is
 * taken, an attempt waits for one for as long as the receiver is
 * answering, so a healthy receiver's burst goes through without delay: if
 * each lane's request has been out for a second or more, the receiver is
 * slow, and the attempt is put off to the retry sweep at once (within a
 * minute, no attempt counted) rather than hold up its own delivery lane.
 */
export const LANES_PER_PARTNER = 2;
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 5_000;
/** A request out this long is a slow receiver's. */
const SLOW_REQUEST_MS = 1_000;
/** The longest an attempt waits for a lane of a receiver that is answering: with its own request, within the sender's 30 seconds. */
const WAIT_MS = 12_000;
const POLL_MS = 50;

export interface Lane {
  attribute: string;
  until: string;
}

const laneAttribute = (index: number) => `Lane${index}` as const;
const lanesOf = (endpoint: WebhookEndpointItem) =>
  Array.from({ length: LANES_PER_PARTNER }, (_, index) => ({ index, until: endpoint[laneAttribute(index)] }));

async function tryLane(endpoint: WebhookEndpointItem, index: number, now: Date): Promise<Lane | undefined> {
  const lane = { attribute: laneAttribute(index), until: new Date(now.getTime() + LEASE_MS).toISOString() };
  const taken = await updateEndpoint(endpoint, {
    expression: `SET ${lane.attribute} = :until`,
    condition: `(attribute_not_exists(${lane.attribute}) OR ${lane.attribute} < :now)`,
    values: { ':until': lane.until, ':now': now.toISOString() },
  });
  return taken ? lane : undefined;
}

/** Whether every lane holds a request that has been out for SLOW_REQUEST_MS or more at `now`. */
const allSlow = (endpoint: WebhookEndpointItem, now: Date) =>
  lanesOf(endpoint).every(({ until }) => until !== undefined && Date.parse(until) - LEASE_MS + SLOW_REQUEST_MS <= now.getTime());

/**
 * One of the endpoint's lanes for an attempt at `now`, or undefined when
 * the receiver is slow, or no lane freed within the wait. Lanes that look
 * taken are watched by reading the endpoint, not by writing to it.
 */
export async function takeLane(endpoint: WebhookEndpointItem, now: Date): Promise<Lane | undefined> {
  const started = Date.now();
  const at = () => new Date(now.getTime() + Date.now() - started);
  for (let current: WebhookEndpointItem | undefined = endpoint; current?.CreatedAt === endpoint.CreatedAt;) {
    const instant = at();
    for (const { index, until } of lanesOf(current)) {
      if (until !== undefined && until >= instant.toISOString()) continue;
      const lane = await tryLane(endpoint, index, instant);
      if (lane) return lane;
    }
    if (Date.now() - started >= WAIT_MS) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = await getEndpoint(endpointKeyOf(endpoint));
    if (current && allSlow(current, at())) return undefined;
  }
  return undefined;
}

/** Frees the lane, unless its lease already ended and another attempt holds it. */
export async function releaseLane(endpoint: WebhookEndpointItem, lane: Lane): Promise<void> {
  await updateEndpoint(endpoint, {
    expression: `REMOVE ${lane.attribute}`,
    condition: `${lane.attribute} = :until`,
    values: { ':until': lane.until },
  });
}
