/**
 * Four projects: `unit` needs neither a database nor Java; `integration` and
 * `e2e` run against one DynamoDB Local started for the run; `infra`
 * synthesizes the CDK stack. `npm test` runs all four; `--selectProjects` one.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  // @middy/* and the Temporal polyfill (the time zone tests' cross-check) ship ES modules only; ts-jest turns them into CommonJS.
  transform: { '^.+\\.[tj]s$': 'ts-jest' },
  transformIgnorePatterns: ['/node_modules/(?!@middy/|temporal-polyfill/|temporal-utils/)'],
};

const withDynamoDbLocal = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    { ...shared, ...withDynamoDbLocal, displayName: 'integration', roots: ['<rootDir>/test/integration'] },
    { ...shared, displayName: 'infra', roots: ['<rootDir>/test/infra'] },
    { ...shared, ...withDynamoDbLocal, displayName: 'e2e', roots: ['<rootDir>/test/e2e'] },
  ],
};
