import { validators } from '../../shared/api/validators/octo-get-subscription.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoGetSubscription } from '../../shared/octo/notifications';

export const handler = httpHandler(validators, octoGetSubscription, octoFace);
