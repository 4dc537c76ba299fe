import { validators } from '../../shared/api/validators/confirm-booking.generated';
import { confirmHold } from '../../shared/booking/holds';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

/** Confirming twice is harmless: the second call answers the confirmed booking. */
export const handler = httpHandler(
  validators,
  async ({ caller, path, body }) => ok(await confirmHold(caller, path.BookingReference, body)),
  problemFace,
);
