import { validators } from '../../shared/api/validators/octo-confirm-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { confirmBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, confirmBooking, octoFace);
