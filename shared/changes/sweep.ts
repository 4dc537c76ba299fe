import { config } from '../core/config';
import { FLUSH_GRACE_MS } from './model';
import { queryDueFlushes } from './repository';
import { flushDue } from './timeslot-announcer';

/**
 * The one-minute sweep of trailing flushes: a flush whose queue message was
 * lost (the consumer crashed between recording the flush and sending it, the
 * message ran out of receives) is made here, FLUSH_GRACE_MS after it was due.
 */
const PAGE = 100;
const MAX_PAGES = 20;

export async function flushOverdue(now: Date = config().clock()): Promise<number> {
  const dueBy = new Date(now.getTime() - FLUSH_GRACE_MS).toISOString();
  let flushed = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const due = await queryDueFlushes(dueBy, PAGE);
    const outcomes = await Promise.all(
      due.map((record) =>
        flushDue(
          {
            OperatorID: record.OperatorID,
            ActivityID: record.ActivityID,
            Date: record.Date,
            Time: record.Time,
            FlushAt: record.FlushAt as string,
          },
          now,
        ),
      ),
    );
    flushed += outcomes.filter((outcome) => outcome !== 'not-due').length;
    // A short page is the end; a page of nothing flushed is the index catching up with this sweep's own writes.
    if (due.length < PAGE || outcomes.every((outcome) => outcome === 'not-due')) break;
  }
  return flushed;
}
