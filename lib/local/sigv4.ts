import type { IncomingMessage } from 'node:http';
import { LOCAL_CREDENTIALS } from './defaults';

/**
 * The AWS API stand-ins (EventBridge, SQS, KMS) take only calls signed with AWS
 * Signature Version 4 by the local credentials, as AWS takes only signed
 * calls: `AWS4-HMAC-SHA256 Credential=<key>/<yyyymmdd>/<region>/<service>/aws4_request,
 * SignedHeaders=..., Signature=<64 hex>`. The shape and the access key are
 * checked; the signature is not recomputed, since the local secret is public.
 */

export interface SignatureFault {
  /** The error AWS answers with, as `__type`. */
  type: 'MissingAuthenticationTokenException' | 'IncompleteSignatureException' | 'UnrecognizedClientException';
  message: string;
}

const authorizationOf = (service: string) =>
  new RegExp(
    `^AWS4-HMAC-SHA256 +Credential=([^/\\s,]+)/\\d{8}/[^/\\s,]+/${service}/aws4_request, *SignedHeaders=[a-z0-9;-]+, *Signature=[0-9a-f]{64}$`,
  );

/** Why the call is not signed by the local credentials for `service`, or undefined when it is. */
export function localSignatureFault(request: IncomingMessage, service: 'events' | 'sqs' | 'kms'): SignatureFault | undefined {
  const authorization = request.headers.authorization;
  if (!authorization) return { type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const accessKeyId = authorizationOf(service).exec(authorization)?.[1];
  if (!accessKeyId) {
    return {
      type: 'IncompleteSignatureException',
      message: `Authorization header requires Credential (for the service ${service}), SignedHeaders and Signature parameters of AWS Signature Version 4 (AWS4-HMAC-SHA256)`,
    };
  }
  if (accessKeyId !== LOCAL_CREDENTIALS.accessKeyId) {
    return { type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' };
  }
  return undefined;
}
