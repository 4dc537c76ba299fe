import { validators } from '../../shared/api/validators/octo-create-subscription.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoCreateSubscription } from '../../shared/octo/notifications';

export const handler = httpHandler(validators, octoCreateSubscription, octoFace);
