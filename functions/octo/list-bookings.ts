import { validators } from '../../shared/api/validators/octo-list-bookings.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoListBookings } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoListBookings, octoFace);
