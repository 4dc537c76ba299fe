import { config } from './config';

/** What a client of the AWS SDK is created with here: the region, and locally the local host's endpoint and credentials. */
export interface AwsClientOptions {
  region: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * An AWS client (EventBridge, SQS, KMS) created on first use, once per
 * process; created again when the configured local endpoint moves (the
 * tests' local hosts). On Lambda the endpoint is unset and the SDK finds
 * the service's own.
 */
export function awsClient<C extends { destroy(): void }>(create: (options: AwsClientOptions) => C): () => C {
  let current: { client: C; endpoint?: string } | undefined;
  return () => {
    const { region, localAwsEndpoint, localCredentials } = config();
    if (!current || current.endpoint !== localAwsEndpoint) {
      current?.client.destroy();
      current = { client: create({ region, endpoint: localAwsEndpoint, credentials: localCredentials }), endpoint: localAwsEndpoint };
    }
    return current.client;
  };
}
