/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // @middy/* ships ES modules only; ts-jest turns them into CommonJS like the project's own code.
  transform: { '^.+\\.[tj]s$': 'ts-jest' },
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
};
