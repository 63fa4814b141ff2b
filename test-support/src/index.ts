/**
 * @bop/test-support: what every service's tests share — the harness (a fresh database per test file,
 * services started for real), the all-in-one runtime harness, SQL and outbox readers, replica waits and
 * the factories more than one service's tests use. A service's own factories stay in its test/fixtures.ts.
 */
export * from './harness';
export * from './runtime-harness';
export * from './sql';
export * from './locations';
export * from './inventory';
export * from './env';
export * from './clock';
export * from './events';
export * from './receiver';
export * from './multipart';
export * from './service-process';
export * from './openapi-validation';
export * from './file-ended';
