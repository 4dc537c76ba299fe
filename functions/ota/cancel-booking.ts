import { cancelPartnerBooking } from '../../shared/booking/partner-bookings';
import { bookingReferencePath, type BookingReferencePath } from '../../shared/booking/request-schema';
import { httpHandler, ok } from '../../shared/http/handler';

/** Takes no body: the reference in the path is the whole request, so retrying it is harmless. */
export const handler = httpHandler<BookingReferencePath>({ path: bookingReferencePath }, async ({ caller, path }) =>
  ok(await cancelPartnerBooking(caller, path.BookingReference)),
);
