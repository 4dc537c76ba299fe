import path from 'node:path';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { METRIC_NAMESPACE, SERVICE_NAME } from '../../shared/core/metrics';
import type { LogLevel } from '../../shared/core/config';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct, IConstruct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/api/gateway';
import { bundlingOptions } from './bundling';
import { entryPath, PROJECT_ROOT, type Route } from '../../shared/api/routes';

export interface ServiceRoleProps {
  table: ITable;
  /** What the functions assuming the role may do to the table. */
  tableAccess: Route['tableAccess'];
  description: string;
}

/**
 * The execution role of one or more functions of this service: Lambda's
 * basic execution (their own log groups), X-Ray, and the table access it
 * declares, nothing else. Functions that need exactly the same access share
 * one role; a function that needs more (a stream to read, a queue to send to)
 * has a role of its own.
 */
export class ServiceRole extends Role {
  readonly tableAccess: Route['tableAccess'];

  constructor(scope: Construct, id: string, props: ServiceRoleProps) {
    super(scope, id, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      description: props.description,
    });
    this.tableAccess = props.tableAccess;
    if (props.tableAccess === 'readWrite') props.table.grantReadWriteData(this);
    else props.table.grantReadData(this);
    const tableArn = nagName(this, props.table.tableArn);
    const acknowledged: [string, string][] = [
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        'Lambda’s basic execution role grants writing to the functions’ own log groups only',
      ],
      ['AwsSolutions-IAM5[Resource::*]', 'X-Ray’s PutTraceSegments and PutTelemetryRecords have no resource-level permissions'],
      [`AwsSolutions-IAM5[Resource::${tableArn}/index/*]`, 'Queries of the table’s own global secondary indexes, and of no other table'],
    ];
    for (const [id, reason] of acknowledged) Validations.of(this).acknowledge({ id, reason });
  }
}

/** How cdk-nag names a value in a finding: a reference as `<LogicalId>` or `<LogicalId.Attribute>`, a join as its parts. */
function nagName(scope: IConstruct, value: string): string {
  const render = (resolved: unknown): string => {
    if (typeof resolved === 'string') return resolved;
    const intrinsic = resolved as { Ref?: string; 'Fn::GetAtt'?: string[]; 'Fn::Join'?: [string, unknown[]] };
    if (intrinsic.Ref) return `<${intrinsic.Ref}>`;
    if (intrinsic['Fn::GetAtt']) return `<${intrinsic['Fn::GetAtt'].join('.')}>`;
    if (intrinsic['Fn::Join']) return intrinsic['Fn::Join'][1].map(render).join(intrinsic['Fn::Join'][0]);
    throw new Error(`No cdk-nag name for ${JSON.stringify(resolved)}`);
  };
  return render(Stack.of(scope).resolve(value));
}

export interface ServiceFunctionProps {
  /** Handler module relative to the project root, as in the route table. */
  entry: string;
  table: ITable;
  /** Its execution role, which holds its table access. */
  role: ServiceRole;
  problemBaseUrl: string;
  /** LOG_LEVEL of the function (INFO unless the app's context says otherwise). */
  logLevel?: LogLevel;
  /** Longer than the API's for work no request waits on (the webhook sender, the sweeps). */
  timeoutSeconds?: number;
}

/**
 * A function of this service: bundled by the locally installed esbuild (so
 * synth works offline, without Docker) with the options the benchmark
 * measures, on the runtime and memory every function shares, under the role
 * it is given.
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id, {
      entry: entryPath(props.entry),
      handler: 'handler',
      // Explicit, so synth does not depend on the directory it is started from.
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(props.timeoutSeconds ?? FUNCTION_TIMEOUT_SECONDS),
      bundling: bundlingOptions,
      role: props.role,
      environment: {
        TABLE_NAME: props.table.tableName,
        PROBLEM_BASE_URL: props.problemBaseUrl,
        LOG_LEVEL: props.logLevel ?? 'INFO',
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
      },
      // Every invocation is traced by Lambda; each DynamoDB call's latency is on the invocation's log line and a metric (shared/core/observability.ts).
      tracing: Tracing.ACTIVE,
      // An explicit log group, because the one Lambda creates on its own keeps logs forever.
      logGroup: new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH }),
    });
  }
}
