/**
 * Notifications (issue 39): a schedule published for BENCH_EMPLOYEES (2,000) employees, one draft
 * shift each, through the gateway of the compiled runtime (all services, embedded Postgres).
 * Set-up: the employees (`POST /employees`) and their shifts (`POST /shifts`), then the bench waits
 * until communication's shift replica holds every draft (scheduling's `shift.changed`). Measured:
 * `POST /schedules:publish`, then scheduling's `schedule.published` → communication's notifications
 * consumer → one in-app `schedule_published` notification per employee; the time from sending the
 * publish to each notification seen stored (polled every 20 ms): p50, p99, all. Baseline in the same
 * run: the stored notification rows inserted again with one plain multi-row INSERT over one pg
 * connection into a table like communication.notifications. Target (issue): p99 < 5 s.
 *
 *   npm run bench:notifications     (BENCH_EMPLOYEES=2000 BENCH_CLIENTS=8 change the load)
 */
import os from 'node:os';
import { Client } from 'pg';
import { plainInsertRate } from './plain-insert';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { runBench } from './entry';

const employees = Number(process.env.BENCH_EMPLOYEES ?? 2000);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/** Runs `each(i)` for i in [0, n) on `clients` concurrent lanes. */
async function lanes(n: number, each: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(clients, n) }, async () => {
    while (next < n) await each(next++);
  }));
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 300_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  const rt = await startRuntimeProcess({ API_RATE_LIMIT_PER_MIN: '100000000', API_INGEST_RATE_LIMIT_PER_MIN: '100000000', LOG_LEVEL: 'warn' });
  const pg = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${rt.pgPort}/bop` });
  pg.on('error', () => {});
  try {
    await pg.connect();
    const session = await benchSession(rt.base);
    const location = await benchRequest(rt.base, 'POST', '/api/v1/locations', { name: 'Bench restaurant', timezone: 'UTC', externalId: 'BENCH-N' }, session);
    await benchRequest(rt.base, 'PATCH', '/api/v1/company-settings', { positions: ['Cook'] }, session);

    const setupStarted = performance.now();
    const ids: string[] = new Array(employees);
    await lanes(employees, async (i) => {
      const e = await benchRequest(rt.base, 'POST', '/api/v1/employees', { legalFirstName: 'Bench', legalLastName: `Cook ${i}`, homeLocationId: location.id, hireDate: '2026-01-05', positions: ['Cook'] }, session);
      ids[i] = e.id;
    });
    const employeesSeconds = (performance.now() - setupStarted) / 1000;
    // one shift each, three days ahead (no one double-booked)
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await lanes(employees, async (i) => {
      await benchRequest(rt.base, 'POST', '/api/v1/shifts', { locationId: location.id, position: 'Cook', employeeId: ids[i], start: `${day}T09:00:00Z`, end: `${day}T17:00:00Z` }, session);
    });
    await waitFor(async () => Number((await pg.query(`select count(*) as n from communication.shifts where location_id = $1 and employee_id is not null`, [location.id])).rows[0].n) === employees, 'the shift replica');
    console.log(`set-up: ${employees} employees in ${employeesSeconds.toFixed(1)} s, their shifts replicated to communication ${((performance.now() - setupStarted) / 1000 - employeesSeconds).toFixed(1)} s later`);

    const count = async () => Number((await pg.query(`select count(*) as n from communication.notifications where kind = 'schedule_published' and subject_id = $1`, [location.id])).rows[0].n);
    const seenAt: number[] = [];
    const started = performance.now();
    const publishing = benchRequest(rt.base, 'POST', '/api/v1/schedules:publish', { locationId: location.id, from: day, to: day }, session).then((r) => ({ r, ms: performance.now() - started }));
    const until = Date.now() + 120_000;
    let seen = 0;
    while (seen < employees && Date.now() < until) {
      const n = await count();
      const at = (performance.now() - started) / 1000;
      for (; seen < n; seen++) seenAt.push(at);
      if (seen < employees) await new Promise((r) => setTimeout(r, 20));
    }
    const { r: published, ms: publishMs } = await publishing;
    if (published.published !== employees) throw new Error(`published ${published.published} shifts, expected ${employees}`);
    if (seen < employees) throw new Error(`only ${seen} of ${employees} notifications stored within 120 s`);

    const { rows, rate } = await plainInsertRate(rt.pgPort, { select: `select * from communication.notifications where kind = 'schedule_published' and subject_id = $1`, params: [location.id], like: 'communication.notifications', size: employees });
    const plainSeconds = rows / rate;
    const p99 = quantile(seenAt, 0.99);
    console.log(`notifications: a schedule of ${employees} employees (one shift each) published through the gateway; node ${process.versions.node}, ${os.cpus().length} cores, embedded Postgres`);
    console.log(`POST /schedules:publish answered in ${(publishMs / 1000).toFixed(3)} s`);
    console.log(`publish → in-app notification stored: p50 ${quantile(seenAt, 0.5).toFixed(3)} s  p99 ${p99.toFixed(3)} s  all ${seenAt[seenAt.length - 1].toFixed(3)} s  (${seen} of ${employees})`);
    console.log(`plain insert of the same ${rows} rows (pg, one connection, one INSERT … VALUES into a table like communication.notifications): ${plainSeconds.toFixed(3)} s; p99 / plain insert: ${(p99 / plainSeconds).toFixed(1)}x`);
    console.log(`${p99 < 5 ? 'meets' : 'misses'} p99 < 5 s`);
  } finally {
    await pg.end().catch(() => undefined);
    await rt.stop();
  }
}

runBench(main);
