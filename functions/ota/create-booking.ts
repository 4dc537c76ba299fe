import { createPartnerBooking } from '../../shared/booking/bookings';
import { bookingLocation } from '../../shared/booking/locations';
import type { BookingRequest } from '../../shared/booking/model';
import { bookingRequestProperties, bookingRequestRequired } from '../../shared/booking/request-schema';
import { created, httpHandler } from '../../shared/http/handler';

const body = {
  type: 'object',
  additionalProperties: false,
  required: [...bookingRequestRequired],
  properties: bookingRequestProperties,
};

export const handler = httpHandler<unknown, unknown, BookingRequest>({ body }, async ({ caller, body, headers }) => {
  const { booking, replayed } = await createPartnerBooking(caller, body, headers['idempotency-key']);
  return created(booking, { location: bookingLocation(booking.BookingReference), replayed });
});
