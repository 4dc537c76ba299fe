import { anonymiseDueBookings } from '../../shared/booking/erasure';
import { scheduledHandler } from '../../shared/core/scheduled';

/** Every quarter of an hour: the personal data of bookings whose activity ended the retention period ago is erased. */
export const handler = scheduledHandler('anonymise-bookings', async () => ({ anonymised: await anonymiseDueBookings() }));
