import { validators } from '../../shared/api/validators/octo-list-subscriptions.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoListSubscriptions } from '../../shared/octo/notifications';

export const handler = httpHandler(validators, octoListSubscriptions, octoFace);
