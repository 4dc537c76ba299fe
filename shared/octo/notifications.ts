import type { APIGatewayProxyResult } from 'aws-lambda';
import type { RequestOf } from '../api/operations';
import type { RouteId } from '../api/routes';
import type { HttpRequest } from '../http/handler';
import type { SubscriptionItem } from '../webhooks/model';
import {
  createSubscription,
  listSubscriptions,
  readSubscription,
  removeSubscription,
  updateSubscription,
  type SubscriptionFields,
} from '../webhooks/subscriptions';
import { octoOk, requestedCapabilities } from './face';
import type { Subscription } from './schemas/notifications';

/**
 * OCTo's notifications capability (docs.octo.travel): a reseller's
 * subscriptions, created, read, changed and deleted under
 * /octo/notifications/subscriptions. Each answers the subscription as OCTo
 * shows it; the rules are the domain's (shared/webhooks/subscriptions.ts).
 */
type Request<Id extends RouteId> = HttpRequest<RequestOf<Id>>;

export const octoSubscription = (item: SubscriptionItem): Subscription => ({
  id: item.SubscriptionID,
  url: item.Url,
  notificationTypes: item.NotificationTypes,
  headers: item.Headers,
});

const answer = (request: { headers: Record<string, string | undefined> }, body: unknown) =>
  octoOk(body, requestedCapabilities(request.headers));

/** OCTo's fields of a subscription, in the domain's names. */
const fieldsOf = (body: { url?: string; notificationTypes?: SubscriptionItem['NotificationTypes']; headers?: Record<string, string> }) =>
  ({
    ...(body.url === undefined ? {} : { Url: body.url }),
    ...(body.notificationTypes === undefined ? {} : { NotificationTypes: body.notificationTypes }),
    ...(body.headers === undefined ? {} : { Headers: body.headers }),
  }) satisfies SubscriptionFields;

export async function octoCreateSubscription(request: Request<'octo-create-subscription'>): Promise<APIGatewayProxyResult> {
  const { body } = request;
  const item = await createSubscription(request.caller, { ...fieldsOf(body), Url: body.url, NotificationTypes: body.notificationTypes });
  return answer(request, octoSubscription(item));
}

export async function octoListSubscriptions(request: Request<'octo-list-subscriptions'>): Promise<APIGatewayProxyResult> {
  return answer(request, (await listSubscriptions(request.caller)).map(octoSubscription));
}

export async function octoGetSubscription(request: Request<'octo-get-subscription'>): Promise<APIGatewayProxyResult> {
  return answer(request, octoSubscription(await readSubscription(request.caller, request.path.subscriptionId)));
}

export async function octoUpdateSubscription(request: Request<'octo-update-subscription'>): Promise<APIGatewayProxyResult> {
  const item = await updateSubscription(request.caller, request.path.subscriptionId, fieldsOf(request.body ?? {}));
  return answer(request, octoSubscription(item));
}

export async function octoDeleteSubscription(request: Request<'octo-delete-subscription'>): Promise<APIGatewayProxyResult> {
  return answer(request, octoSubscription(await removeSubscription(request.caller, request.path.subscriptionId)));
}
