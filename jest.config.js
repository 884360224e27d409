// Two projects: `unit` (pure logic, *.test.ts beside the code, the benchmark's too) and `integration`
// (suites against one real control plane per run, started by the global setup and stopped by the teardown).
const transform = { '^.+\\.ts$': ['@swc/jest'] };
// Local runs' data (.paddock/: etcd's *.snap files look like Jest snapshots) and build output are not tests.
const modulePathIgnorePatterns = ['<rootDir>/.paddock/', '<rootDir>/dist/'];
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/bench/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      slowTestThreshold: 60,
    },
  ],
};
