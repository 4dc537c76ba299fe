import { AwsSolutionsChecks } from 'cdk-nag';
import { OtaUsageStack } from '../../lib/aws/stack';
import { testApp } from '../support/test-app';

const app = testApp();
const stack = new OtaUsageStack(app, 'Test');

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unresolved in the stack or its nested stacks: every exception is acknowledged in code with a reason', () => {
    const report = new AwsSolutionsChecks(app).validateScope(stack);
    const findings = report.violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.constructPath ?? resource.resourceLogicalId}`),
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });
});
