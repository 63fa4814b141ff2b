export { IdempotencyRecord } from './idempotency-record';
