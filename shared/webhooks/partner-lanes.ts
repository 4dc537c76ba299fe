import type { WebhookEndpointItem } from './model';
import { updateEndpoint } from './repository';
import { ATTEMPT_TIMEOUT_MS } from './schedule';

/**
 * How many of one partner's attempts may be in flight at once, whichever
 * delivery lanes (stream batches) they come from: a receiver that accepts
 * and never answers then holds at most this many lanes for an attempt's 10
 * seconds, and every other partner's deliveries go on in the rest. An
 * attempt takes a lane of its endpoint (a lease on the endpoint item, ended
 * when the attempt ends, or by its time should the sender stop) and, when
 * all are taken, waits a moment for one; a healthy receiver frees its lanes
 * in milliseconds, so only a slow one makes its attempts wait, and they are
 * then put off to the retry sweep (within a minute, no attempt counted).
 */
export const LANES_PER_PARTNER = 2;
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 5_000;
const WAIT_MS = 1_000;
const POLL_MS = 100;

export interface Lane {
  attribute: string;
  until: string;
}

async function tryLane(endpoint: WebhookEndpointItem, index: number, now: Date): Promise<Lane | undefined> {
  const lane = { attribute: `Lane${index}`, until: new Date(now.getTime() + LEASE_MS).toISOString() };
  const taken = await updateEndpoint(endpoint, {
    expression: `SET ${lane.attribute} = :until`,
    condition: `(attribute_not_exists(${lane.attribute}) OR ${lane.attribute} < :now)`,
    values: { ':until': lane.until, ':now': now.toISOString() },
  });
  return taken ? lane : undefined;
}

/** One of the endpoint's lanes for an attempt at `now`, or undefined when all stayed taken for the wait. */
export async function takeLane(endpoint: WebhookEndpointItem, now: Date): Promise<Lane | undefined> {
  for (let waited = 0; waited <= WAIT_MS; waited += POLL_MS) {
    for (let index = 0; index < LANES_PER_PARTNER; index += 1) {
      const lane = await tryLane(endpoint, index, now);
      if (lane) return lane;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
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
