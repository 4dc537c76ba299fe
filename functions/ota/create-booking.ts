import { answerPath } from '../../shared/api/answer-paths';
import { validators } from '../../shared/api/validators/create-booking.generated';
import { createPartnerBooking } from '../../shared/booking/partner-bookings';
import { created, httpHandler } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, body, headers }) => {
    const { booking, replayed } = await createPartnerBooking(caller, body, headers['idempotency-key']);
    return created(booking, { location: answerPath('get-booking', { BookingReference: booking.BookingReference }), replayed });
  },
  problemFace,
);
