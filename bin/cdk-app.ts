import { App } from 'aws-cdk-lib';
import { OtaUsageStack } from '../lib/aws/stack';

const app = new App();
new OtaUsageStack(app, 'OtaUsageService', {
  // Account and region come from the CLI's credentials at deploy time; synth needs neither.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  // `cdk deploy -c problemBaseUrl=https://...` publishes absolute problem type URIs.
  problemBaseUrl: app.node.tryGetContext('problemBaseUrl'),
});
