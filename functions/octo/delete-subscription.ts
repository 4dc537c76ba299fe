import { validators } from '../../shared/api/validators/octo-delete-subscription.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoDeleteSubscription } from '../../shared/octo/notifications';

export const handler = httpHandler(validators, octoDeleteSubscription, octoFace);
