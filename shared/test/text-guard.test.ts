/** The kit's edge rules (text-guard.ts) and the database backstop for values a column cannot hold (db-values.ts). */
import { Client } from 'pg';
import { badTextReason, malformedPercentEncoding, scanJson, parseBatchRecords } from '@bop/shared';
import { valueRefusedByDatabase } from '../src/db-values';
import { z } from 'zod';
import { freshDatabase } from '@bop/test-support';

describe('text guard', () => {
  it('finds NUL and lone surrogates, and lets paired surrogates through', () => {
    expect(badTextReason('plain')).toBeNull();
    expect(badTextReason('emoji \ud83d\ude00')).toBeNull();
    expect(badTextReason('a\u0000b')).toMatch(/NUL/);
    expect(badTextReason('x\udfffy')).toMatch(/surrogate/);
    expect(badTextReason('\ud800')).toMatch(/surrogate/);
    expect(badTextReason('\udc00\ud800')).toMatch(/surrogate/);
  });

  it('names every bad string value and key by its field path', () => {
    const body = JSON.parse('{"name":"ok","lines":[{"name":"a"},{"name":"b\\u0000"}],"k\\udfff":1,"deep":{"x":["\\ud800"]}}');
    expect(scanJson(body, { maxDepth: 64 })).toEqual({
      tooDeepAt: null,
      errors: [
        { path: 'k\ufffd', message: expect.stringMatching(/^Field name/) },
        { path: 'lines[1].name', message: expect.stringMatching(/NUL/) },
        { path: 'deep.x[0]', message: expect.stringMatching(/surrogate/) },
      ],
    });
  });

  it('leaves the records of a batch to their own check, but not the batch fields', () => {
    const body = { source: 's\u0000', transactions: [{ externalId: 'a' }, { externalId: 'b\u0000' }] };
    expect(scanJson(body, { maxDepth: 64, skipTextUnder: new Set(['transactions']) }).errors).toEqual([{ path: 'source', message: expect.any(String) }]);
    const parsed = parseBatchRecords(z.object({ externalId: z.string() }), body.transactions);
    expect(parsed[0]).toMatchObject({ externalId: 'a', data: { externalId: 'a' }, errors: [] });
    expect(parsed[1]).toMatchObject({ externalId: null, errors: [{ path: 'externalId', message: expect.stringMatching(/NUL/) }] });
  });

  it('caps nesting without recursion (100,000 levels)', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const r = scanJson(deep, { maxDepth: 64 });
    expect(r.tooDeepAt).toBe(`a${'[0]'.repeat(63)}`);
    expect(scanJson({ a: [[1]] }, { maxDepth: 3 }).tooDeepAt).toBeNull();
    expect(scanJson({ a: [[[1]]] }, { maxDepth: 3 }).tooDeepAt).toBe('a[0][0]');
  });

  it('tells malformed percent-encoding in the path or the query', () => {
    expect(malformedPercentEncoding('/items/abc%20d?x=%41&y=a+b')).toBeNull();
    expect(malformedPercentEncoding('/items/%E0%A4%A')).toMatch(/path/);
    expect(malformedPercentEncoding('/items?x=%E0%A4%A')).toMatch(/query/);
    expect(malformedPercentEncoding('/items?x=%ED%B0%80')).toMatch(/query/); // a surrogate's UTF-8 bytes
    expect(malformedPercentEncoding('/items?%=1')).toMatch(/query/);
  });
});

describe('values a column cannot hold', () => {
  it('turns a Postgres data exception into a 422, and leaves other errors alone', async () => {
    const db = await freshDatabase();
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query('create table t (v varchar(4), n numeric(4,2), s text)');
      for (const [sql, params] of [
        ['insert into t (v) values ($1)', ['toolong']],
        ['insert into t (n) values ($1)', ['12345.6']],
        ['insert into t (s) values ($1)', ['a\u0000b']],
      ] as const) {
        const err = await c.query(sql, [...params]).then(() => null, (e: unknown) => e);
        expect(err).not.toBeNull();
        const refused = valueRefusedByDatabase(new Error('wrapped', { cause: err }));
        expect(refused).toMatchObject({ status: 422, code: 'validation_error' });
      }
      // a NUL in the statement's text itself (as MikroORM inlines values)
      const inlined = await c.query("select 'a\u0000b'").then(() => null, (e: unknown) => e);
      expect(inlined).toMatchObject({ code: '08P01' });
      expect(valueRefusedByDatabase(inlined)).toMatchObject({ status: 422 });
      const syntax = await c.query('selec 1').then(() => null, (e: unknown) => e);
      expect(valueRefusedByDatabase(syntax)).toBeNull();
    } finally {
      await c.end();
      await db.drop();
    }
  });
});
