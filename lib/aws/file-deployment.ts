import { RemovalPolicy, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import { BlockPublicAccess, BucketEncryption, ObjectOwnership, type Bucket, type BucketProps } from 'aws-cdk-lib/aws-s3';

/**
 * A bucket of build output that a BucketDeployment writes afresh on every
 * deployment: private, TLS only, encrypted, and deleted with its stack.
 */
export const buildOutputBucket = {
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  removalPolicy: RemovalPolicy.DESTROY,
} as const satisfies BucketProps;

/**
 * Acknowledges the cdk-nag findings on what CDK makes to deploy build output
 * to a bucket (BucketDeployment's provider: its runtime, role and grants are
 * aws-cdk-lib's, not this project's), each with its reason, on the stack that
 * holds them.
 */
export function acknowledgeFileDeployment(bucket: Bucket, { invalidatesDistribution }: { invalidatesDistribution: boolean }): void {
  const stack = Stack.of(bucket);
  const bucketArn = `<${stack.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>`;
  // cdk-nag names a token by its CloudFormation reference and a known value by itself.
  const named = (value: string, reference: string) => (Token.isUnresolved(value) ? `<${reference}>` : value);
  const assetBucket = `cdk-hnb659fds-assets-${named(stack.account, 'AWS::AccountId')}-${named(stack.region, 'AWS::Region')}`;
  const acknowledged: [string, string][] = [
    ['AwsSolutions-L1', 'The BucketDeployment provider function’s runtime is chosen by aws-cdk-lib'],
    [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'The BucketDeployment provider logs with Lambda’s basic execution role, as CDK creates it',
    ],
    ...(invalidatesDistribution
      ? [
          [
            'AwsSolutions-IAM5[Resource::*]',
            'The BucketDeployment provider invalidates the distribution, an action without resource-level permissions',
          ] as [string, string],
        ]
      : []),
    [
      `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${assetBucket}/*]`,
      'The BucketDeployment provider reads the build from the CDK asset bucket',
    ],
    [`AwsSolutions-IAM5[Resource::${bucketArn}/*]`, 'The BucketDeployment provider replaces every object of the bucket'],
    ...['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*'].map((action): [string, string] => [
      `AwsSolutions-IAM5[Action::${action}]`,
      'The BucketDeployment provider syncs the bucket with the build: CDK’s grant of read, list and delete',
    ]),
  ];
  for (const [id, reason] of acknowledged) Validations.of(stack).acknowledge({ id, reason });
}
