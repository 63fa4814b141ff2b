/**
 * Writes the upgrade test's fixture: a database written by a release. Run it in a checkout of that
 * release (copy this folder there), against a Postgres whose pg_dump is on PATH:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres FIXTURE_OUT=/tmp/release.sql \
 *     npx jest --testRegex 'fixture\.ts$' test/upgrade/make-fixture.fixture.ts
 *   gzip -9 -c /tmp/release.sql > test/upgrade/release-<commit>.sql.gz
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client } from 'pg';
import { eventually, Receiver, startTestRuntime, OWNER, type TestRuntime } from '@bop/test-support';
import { writeReleaseData } from './release-data';

let t: TestRuntime;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
  t = await startTestRuntime({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

it('writes a release database', async () => {
  const data = await writeReleaseData(t.rt.url, OWNER, receiver, 'REL');
  const db = new Client({ connectionString: t.db.url });
  await db.connect();
  // every outbox row published and every delivery made: the dump holds a settled database
  await eventually(async () => {
    const { rows } = await db.query(`select table_schema from information_schema.tables where table_name = 'outbox'`);
    for (const r of rows) {
      const pending = await db.query(`select count(*)::int as n from "${r.table_schema}"."outbox" where "published_at" is null`);
      if (pending.rows[0].n > 0) return false;
    }
    return true;
  }, 60_000, 200);
  await db.end();
  const sql = execFileSync('pg_dump', ['--inserts', '--no-owner', '--no-privileges', '--dbname', t.db.url], { maxBuffer: 256 * 1024 * 1024 }).toString();
  writeFileSync(process.env.FIXTURE_OUT ?? '/tmp/release.sql', `-- written by make-fixture.fixture.ts: ${JSON.stringify(data)}\n${sql}`);
}, 300_000);
