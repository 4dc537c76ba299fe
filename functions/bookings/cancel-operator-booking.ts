import { validators } from '../../shared/api/validators/cancel-operator-booking.generated';
import { cancelOperatorBooking } from '../../shared/booking/cancellation';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) => ok(await cancelOperatorBooking(caller.operatorId, path.BookingReference, body.Reason)),
  problemFace,
);
