import { NotFoundError } from '../core/errors';

/** An owner that has no webhook endpoint: none was registered, or it was removed. */
export class NoWebhookEndpointError extends NotFoundError {
  static of(usageAlerts: boolean): NoWebhookEndpointError {
    return new NoWebhookEndpointError(usageAlerts ? 'This operator has no usage webhook endpoint' : 'This API key has no webhook endpoint');
  }
}
