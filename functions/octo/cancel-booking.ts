import { validators } from '../../shared/api/validators/octo-cancel-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoCancelBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoCancelBooking, octoFace);
