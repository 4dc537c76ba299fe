import { validators } from '../../shared/api/validators/octo-extend-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { extendBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, extendBooking, octoFace);
