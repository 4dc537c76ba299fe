import { validators } from '../../shared/api/validators/cancel-operator-booking.generated';
import { cancelOperatorBooking } from '../../shared/booking/cancellation';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, path, body }) =>
  ok(await cancelOperatorBooking(caller.operatorId, path.BookingReference, body.Reason)),
);
