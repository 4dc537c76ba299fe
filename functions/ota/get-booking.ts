import { validators } from '../../shared/api/validators/get-booking.generated';
import { getPartnerBooking } from '../../shared/booking/partner-bookings';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, path }) => ok(await getPartnerBooking(caller, path.BookingReference)));
