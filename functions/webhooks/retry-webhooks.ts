import { scheduledHandler } from '../../shared/core/scheduled';
import { requeueDueDeliveries } from '../../shared/webhooks/retries';

/** Every minute: deliveries whose next attempt is due go back on the queue. */
export const handler = scheduledHandler('retry-webhooks', async () => ({ queued: await requeueDueDeliveries() }));
