import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/api/gateway';
import { systemClock, type Clock } from '../../shared/core/clock';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';

/**
 * The Lambda context an invocation receives, for the functions that the local
 * API Gateway and the local event bus invoke: one request ID per invocation and
 * the remaining time counted down from the function's timeout on `clock`.
 */
export function lambdaContext(functionName: string, clock: Clock = systemClock): Context {
  const deadline = clock().getTime() + FUNCTION_TIMEOUT_SECONDS * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - clock().getTime()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
