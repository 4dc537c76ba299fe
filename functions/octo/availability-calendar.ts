import { validators } from '../../shared/api/validators/octo-availability-calendar.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoAvailabilityCalendar } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoAvailabilityCalendar, octoFace);
