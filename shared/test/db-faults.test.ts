import { isDatabaseUnavailable } from '../src/db-faults';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['Postgres shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    // knex ended the transaction when its connection died; the request's next statement meets it
    ['a transaction its dead connection ended', new Error('Transaction query already complete, run with DEBUG=knex:tx for more info')],
    ['an outage as the cause', new Error('insert failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) })],
  ])('counts %s as the database unavailable', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })],
    ['a NUL in a statement (protocol violation)', Object.assign(new Error('invalid message format'), { code: '08P01' })],
    ['a syntax error', Object.assign(new Error('syntax error at or near "selct"'), { code: '42601' })],
  ])('does not count %s', (_what, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});
