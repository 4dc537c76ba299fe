import { validators } from '../../shared/api/validators/octo-confirm-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoConfirmBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoConfirmBooking, octoFace);
