import { cancelOperatorBooking } from '../../shared/booking/operator-bookings';
import { bookingReferencePath, type BookingReferencePath, cancellationReasonSchema } from '../../shared/booking/request-schema';
import { httpHandler, ok } from '../../shared/http/handler';

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['Reason'],
  properties: { Reason: cancellationReasonSchema },
} as const;

export const handler = httpHandler<BookingReferencePath, unknown, { Reason: string }>(
  { path: bookingReferencePath, body },
  async ({ caller, path, body }) => ok(await cancelOperatorBooking(caller.operatorId, path.BookingReference, body.Reason)),
);
