// Two projects: `unit` (pure logic, *.test.ts beside the code and test/unit) and `integration` (suites
// against one real control plane per run, started by the global setup and stopped by the teardown).
const transform = { '^.+\\.ts$': ['@swc/jest'] };
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      slowTestThreshold: 60,
    },
  ],
};
