import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { firewallOption } from '../lib/aws/api-firewall';
import { OtaUsageStack } from '../lib/aws/stack';
import { parseWebhookPorts } from '../shared/core/config';
import { parseRetentionDays } from '../shared/booking/retention';

const app = new App();
new OtaUsageStack(app, 'OtaUsageService', {
  // Account and region come from the CLI's credentials at deploy time; synth needs neither.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  // `cdk deploy -c problemBaseUrl=https://...` publishes absolute problem type URIs.
  problemBaseUrl: app.node.tryGetContext('problemBaseUrl'),
  // `-c logLevel=DEBUG` for every function; `-c alarmEmail=ops@example.com` subscribes an address to the alarms.
  logLevel: app.node.tryGetContext('logLevel'),
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  // `-c webhookPorts=443,8443` lets partners register webhook URLs on those ports (443 alone otherwise).
  webhookPorts: app.node.tryGetContext('webhookPorts') && parseWebhookPorts(String(app.node.tryGetContext('webhookPorts'))),
  // `-c retentionDays=730` keeps customers' personal data two years after their activity (a year otherwise).
  retentionDays: app.node.tryGetContext('retentionDays') && parseRetentionDays(String(app.node.tryGetContext('retentionDays'))),
  // `-c waf=false` deploys without the firewall; `-c wafRequestsPerAddress=12000` changes its per-address limit (per minute).
  firewall: firewallOption(app.node.tryGetContext('waf'), app.node.tryGetContext('wafRequestsPerAddress')),
});
// AWS's own best-practice rules: synth fails on any finding not acknowledged in code with a reason.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
