import { validators } from '../../shared/api/validators/octo-reserve-booking.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoReserveBooking } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoReserveBooking, octoFace);
