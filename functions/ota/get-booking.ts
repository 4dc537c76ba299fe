import { getPartnerBooking } from '../../shared/booking/partner-bookings';
import { bookingReferencePath, type BookingReferencePath } from '../../shared/booking/request-schema';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler<BookingReferencePath>({ path: bookingReferencePath }, async ({ caller, path }) =>
  ok(await getPartnerBooking(caller, path.BookingReference)),
);
