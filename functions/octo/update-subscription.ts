import { validators } from '../../shared/api/validators/octo-update-subscription.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoUpdateSubscription } from '../../shared/octo/notifications';

export const handler = httpHandler(validators, octoUpdateSubscription, octoFace);
