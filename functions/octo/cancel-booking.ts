import { validators } from '../../shared/api/validators/octo-cancel-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { cancelBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, cancelBooking, octoFace);
