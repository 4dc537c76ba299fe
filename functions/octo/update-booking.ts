import { validators } from '../../shared/api/validators/octo-update-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoUpdateBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoUpdateBooking, octoFace);
