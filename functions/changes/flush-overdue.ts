import { flushOverdue } from '../../shared/changes/sweep';
import { scheduledHandler } from '../../shared/core/scheduled';

/** Every minute: trailing flushes whose queue message was lost are made. */
export const handler = scheduledHandler('flush-overdue', async () => ({ flushed: await flushOverdue() }));
