import { validators } from '../../shared/api/validators/octo-delete-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoDeleteBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoDeleteBooking, octoFace);
