import { expireDueHolds } from '../../shared/booking/holds';
import { scheduledHandler } from '../../shared/core/scheduled';

/** Every minute: holds whose HoldExpiresAt has passed become EXPIRED and give their places back. */
export const handler = scheduledHandler('expire-holds', async () => ({ expired: await expireDueHolds() }));
