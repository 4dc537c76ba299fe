import { CfnParameter, NestedStack } from 'aws-cdk-lib';
import { Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

export interface ServiceStackProps {
  /** The service's table, in the parent stack. */
  table: ITable;
  /** The topic every alarm notifies, in the parent stack. */
  alarmTopic: ITopic;
  /** What the stack holds, as the CloudFormation console shows it. */
  description: string;
  /** For the stacks whose functions read the table's stream. */
  readsStream?: boolean;
  /** For the stacks whose functions issue or send webhooks: the ARN of the key their signing secrets are encrypted with. */
  signingSecretsKeyArn?: string;
  /** Further values from the parent stack, each a parameter of that name. */
  parameters?: Record<string, string>;
}

/**
 * A nested stack of this service's functions. What it takes from the parent
 * stack (the table, the alarm topic, ...) arrives as parameters named for
 * what they are, so the console's Parameters tab reads as the stack's
 * interface, and functions inside are granted the table by its name (and
 * its indexes: a table known only by name would otherwise be granted without
 * them).
 */
export class ServiceStack extends NestedStack {
  readonly table: ITable;
  readonly alarmTopic: ITopic;
  /** The signing secrets' key, when the parent stack passed it. */
  readonly signingSecretsKeyArn?: string;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, {
      description: props.description,
      parameters: {
        TableName: props.table.tableName,
        AlarmTopicArn: props.alarmTopic.topicArn,
        ...(props.readsStream ? { TableStreamArn: props.table.tableStreamArn as string } : {}),
        ...(props.signingSecretsKeyArn ? { SigningSecretsKeyArn: props.signingSecretsKeyArn } : {}),
        ...props.parameters,
      },
    });
    this.table = Table.fromTableAttributes(this, 'Table', {
      tableName: this.parameter('TableName'),
      tableStreamArn: props.readsStream ? this.parameter('TableStreamArn') : undefined,
      grantIndexPermissions: true,
    });
    this.alarmTopic = Topic.fromTopicArn(this, 'AlarmTopic', this.parameter('AlarmTopicArn'));
    if (props.signingSecretsKeyArn) this.signingSecretsKeyArn = this.parameter('SigningSecretsKeyArn');
  }

  /** The value the parent stack passes under `name` (one call per name). */
  protected parameter(name: string): string {
    return new CfnParameter(this, name, { type: 'String' }).valueAsString;
  }
}
