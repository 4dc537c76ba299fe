import { config } from '../core/config';
import { queryDueDeliveries, queueAttempt } from './repository';
import { QUEUED_ATTEMPT_LEASE_MS } from './schedule';

/**
 * The one-minute retry sweep: queues an attempt of every pending delivery
 * whose next attempt is due (a retry after a failure, or a first attempt
 * that never happened). Queuing is one conditional write: it moves the due
 * time a lease ahead, so that the next sweep does not queue it again while
 * the attempt runs, and sets QueuedAt, which the stream hands to the sender.
 */
const PAGE = 100;
/** Pages per sweep at most; what is left is due on the next sweep. */
const MAX_PAGES = 50;

export async function requeueDueDeliveries(now: Date = config().clock()): Promise<number> {
  const nowIso = now.toISOString();
  const leaseEnd = new Date(now.getTime() + QUEUED_ATTEMPT_LEASE_MS).toISOString();
  let queued = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const due = await queryDueDeliveries(nowIso, PAGE);
    const leased = (await Promise.all(due.map((delivery) => queueAttempt(delivery, nowIso, leaseEnd)))).filter(Boolean).length;
    queued += leased;
    // A short page is the end; a page of nothing leasable is the index catching up with this sweep's own moves.
    if (due.length < PAGE || leased === 0) break;
  }
  return queued;
}
