import { validators } from '../../shared/api/validators/octo-get-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoGetBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoGetBooking, octoFace);
