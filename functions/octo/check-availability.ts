import { validators } from '../../shared/api/validators/octo-check-availability.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoCheckAvailability } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoCheckAvailability, octoFace);
