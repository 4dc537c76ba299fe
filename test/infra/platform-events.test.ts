import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { eventRules } from '../../shared/api/event-rules';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { PlatformEvents } from '../../lib/aws/platform-events';
import { testApp } from '../support/test-app';

let template: Template;

beforeAll(() => {
  // Prepare
  // Bundling is proven by test/integration/bundles.test.ts; here only the template matters.
  const stack = new Stack(testApp(), 'PlatformEventsTest', {
    env: { account: '111111111111', region: 'eu-west-1' },
  });
  const table = new Table(stack, 'Table', {
    partitionKey: { name: 'PK', type: AttributeType.STRING },
    sortKey: { name: 'SK', type: AttributeType.STRING },
  });
  const alarmTopic = new Topic(stack, 'Alarms');
  // Act
  new PlatformEvents(stack, 'PlatformEvents', { table, alarmTopic });
  template = Template.fromStack(stack);
});

const functionLogicalId = () => Object.keys(template.findResources('AWS::Lambda::Function'))[0];
const queueLogicalId = () => Object.keys(template.findResources('AWS::SQS::Queue'))[0];

describe('PlatformEvents', () => {
  it('makes one function on nodejs24.x with the table name', () => {
    template.resourceCountIs('AWS::Lambda::Function', 1);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
      Environment: { Variables: Match.objectLike({ TABLE_NAME: { Ref: Match.stringLikeRegexp('^Table') } }) },
    });
  });

  it('lets the function read and write the table', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Action: Match.arrayWith(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']),
          }),
        ]),
      },
    });
  });

  it('makes one rule per row of the rules module, on the default bus, each targeting the function with a retry policy and the dead-letter queue', () => {
    template.resourceCountIs('AWS::Events::Rule', eventRules.length);
    for (const rule of eventRules) {
      template.hasResourceProperties('AWS::Events::Rule', {
        EventBusName: 'default',
        EventPattern: { source: [rule.source], 'detail-type': [rule.detailType] },
        State: 'ENABLED',
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [functionLogicalId(), 'Arn'] },
            RetryPolicy: { MaximumEventAgeInSeconds: 86400, MaximumRetryAttempts: 185 },
            DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueLogicalId(), 'Arn'] } },
          }),
        ],
      });
    }
  });

  it('sends events the function fails on, after its retries, to the same dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionLogicalId() },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 21600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueLogicalId(), 'Arn'] } } },
    });
  });

  it('keeps dead letters 14 days in an encrypted queue that EventBridge may write to, and alarms on the first one', () => {
    template.resourceCountIs('AWS::SQS::Queue', 1);
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 1209600, SqsManagedSseEnabled: true });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Action: 'sqs:SendMessage', Principal: { Service: 'events.amazonaws.com' } }),
        ]),
      },
    });
    const topic = { Ref: Object.keys(template.findResources('AWS::SNS::Topic'))[0] };
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueLogicalId(), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      AlarmActions: [topic],
      OKActions: [topic],
    });
  });

  it('lets EventBridge invoke the function for each rule', () => {
    template.resourceCountIs('AWS::Lambda::Permission', eventRules.length);
    template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com' });
  });
});
