import { createPartnerBooking } from '../../shared/booking/partner-bookings';
import type { BookingRequest } from '../../shared/booking/model';
import { partnerBookingBody } from '../../shared/booking/request-schema';
import { routePath } from '../../shared/api/routes';
import { created, httpHandler } from '../../shared/http/handler';

export const handler = httpHandler<unknown, unknown, BookingRequest>({ body: partnerBookingBody }, async ({ caller, body, headers }) => {
  const { booking, replayed } = await createPartnerBooking(caller, body, headers['idempotency-key']);
  return created(booking, { location: routePath('get-booking', { BookingReference: booking.BookingReference }), replayed });
});
