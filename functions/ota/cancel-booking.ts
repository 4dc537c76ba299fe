import { validators } from '../../shared/api/validators/cancel-booking.generated';
import { cancelPartnerBooking } from '../../shared/booking/partner-bookings';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

/** Takes no body: the reference in the path is the whole request, so retrying it is harmless. */
export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok(await cancelPartnerBooking(caller, path.BookingReference)),
  problemFace,
);
