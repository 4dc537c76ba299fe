import { validators } from '../../shared/api/validators/octo-delete-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { deleteBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, deleteBooking, octoFace);
