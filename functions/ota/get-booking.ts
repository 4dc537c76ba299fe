import { validators } from '../../shared/api/validators/get-booking.generated';
import { getPartnerBooking } from '../../shared/booking/partner-bookings';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok(await getPartnerBooking(caller, path.BookingReference)),
  problemFace,
);
