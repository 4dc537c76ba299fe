import { confirmHold } from '../../shared/booking/holds';
import type { ConfirmationRequest } from '../../shared/booking/model';
import { bookingReferencePath, type BookingReferencePath, confirmationBody } from '../../shared/booking/request-schema';
import { httpHandler, ok } from '../../shared/http/handler';

/** Confirming twice is harmless: the second call answers the confirmed booking. */
export const handler = httpHandler<BookingReferencePath, unknown, ConfirmationRequest>(
  { path: bookingReferencePath, body: confirmationBody },
  async ({ caller, path, body }) => ok(await confirmHold(caller, path.BookingReference, body)),
);
