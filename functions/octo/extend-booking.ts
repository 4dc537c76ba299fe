import { validators } from '../../shared/api/validators/octo-extend-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoExtendBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoExtendBooking, octoFace);
