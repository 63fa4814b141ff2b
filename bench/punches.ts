/**
 * Time ingestion (issue 17): 200,000 punches of 2,000 employees over one biweekly pay period, sent to
 * POST /api/v1/time/punches:batch through the gateway of the compiled runtime (all services, the
 * embedded default), in time order as timeclocks would send them. Prints punches/s and batch
 * latency, then the time from the last batch's 202 until every timesheet is current (recalculated
 * after its last punch): p50, p99 and the last. In the same run, as the baseline, the same punch
 * rows inserted into a table like time.punches with plain multi-row INSERTs over one pg connection.
 * Targets (issue): >= 10,000 punches/s; timesheets current within p99 < 5 s.
 *
 *   npm run bench:punches     (BENCH_EMPLOYEES=2000 BENCH_PUNCHES_PER_EMPLOYEE=100 BENCH_BATCH=1000 BENCH_CLIENTS=4 change the load; 4 clients: a fleet of timeclocks sends at once)
 */
import os from 'node:os';
import { plainInsertRate } from './plain-insert';
import { BENCH_OWNER, startRuntimeProcess } from './runtime-process';
import { runBench } from './entry';

const employees = Number(process.env.BENCH_EMPLOYEES ?? 2000);
const perEmployee = Number(process.env.BENCH_PUNCHES_PER_EMPLOYEE ?? 100);
const batchSize = Number(process.env.BENCH_BATCH ?? 1000);
const clients = Number(process.env.BENCH_CLIENTS ?? 4);
/** the biweekly period of the company settings' default calendar (anchor 2026-01-05) */
const PERIOD_START = Date.UTC(2026, 1, 2);

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

interface Punch {
  externalId: string;
  employeeExternalId: string;
  locationExternalId: string;
  type: string;
  occurredAt: string;
  deviceId: string;
}

/**
 * Each employee's punches: shifts of clock-in, break start, break end and clock-out, two a day
 * (07:00–11:00 and 13:00–17:00, a 15-minute break in each) from the period's first day until
 * `perEmployee` punches; start times spread over the hour by employee.
 */
function punchesOf(e: number): Punch[] {
  const out: Punch[] = [];
  const offset = (e % 60) * 60_000;
  for (let day = 0; out.length < perEmployee; day++) {
    for (const startHour of [7, 13]) {
      const at = (h: number, m = 0) => new Date(PERIOD_START + (day % 14) * 86_400_000 + h * 3_600_000 + m * 60_000 + offset).toISOString();
      const shift: Array<[string, string]> = [
        ['clock_in', at(startHour)],
        ['break_start', at(startHour + 2)],
        ['break_end', at(startHour + 2, 15)],
        ['clock_out', at(startHour + 4)],
      ];
      for (const [type, occurredAt] of shift) {
        if (out.length >= perEmployee) break;
        out.push({ externalId: `E${e}-${out.length}`, employeeExternalId: `BENCH-E${e}`, locationExternalId: 'BENCH-1', type, occurredAt, deviceId: `clock-${e % 10}` });
      }
    }
  }
  return out;
}

async function main(): Promise<void> {
  const rt = await startRuntimeProcess({ API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000' });
  try {
    const request = async (method: string, p: string, body: unknown, auth?: string) => {
      const res = await fetch(`${rt.base}${p}`, { method, headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const must = async (method: string, p: string, body: unknown, auth?: string) => {
      const r = await request(method, p, body, auth);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      return r.body;
    };
    const session = (await must('POST', '/api/v1/auth/sign-in', BENCH_OWNER)).token;
    const location = await must('POST', '/api/v1/locations', { name: 'Bench store', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'BENCH-1' }, session);
    const reg = await must('POST', '/api/v1/integrations', { manifest: { name: 'Bench timeclock', version: '1.0.0', description: 'bench', scopes: ['time:write', 'time:read'], webhooks: [] } }, session);
    const key: string = reg.apiKey;
    const setupStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < employees) {
          const e = next++;
          await must('PUT', `/api/v1/employees/external/BENCH-E${e}`, { legalFirstName: 'Bench', legalLastName: `Employee ${e}`, homeLocationId: location.id, hireDate: '2025-01-06' }, session);
        }
      }),
    );
    console.log(`set-up: ${employees} employees through PUT /employees/external in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    // every employee's punches, in time order across employees (as the feeds would send them), serialised before the clock starts
    const all = Array.from({ length: employees }, (_, e) => punchesOf(e))
      .flat()
      .sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : a.externalId < b.externalId ? -1 : 1));
    const bodies: string[] = [];
    for (let i = 0; i < all.length; i += batchSize) bodies.push(JSON.stringify({ source: 'bench-clocks', punches: all.slice(i, i + batchSize) }));

    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let sent = 0;
    let lastAccepted = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (sent < bodies.length) {
          const body = bodies[sent++];
          const t0 = performance.now();
          const res = await fetch(`${rt.base}/api/v1/time/punches:batch`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
          const answer = (await res.json()) as { results: Array<{ status: string; errors?: unknown }> };
          latencies.push(performance.now() - t0);
          if (res.status !== 202) throw new Error(`punches:batch ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
          for (const r of answer.results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          lastAccepted = Date.now();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (statuses.rejected) throw new Error(`${statuses.rejected} punches were rejected`);
    console.log(`sent: ${(all.length / seconds).toFixed(0)} punches/s; waiting for every timesheet to be current`);

    // every timesheet current: its figures counted after the last batch was answered
    const sheets = new Map<string, { current: boolean; calculatedAt: string | null }>();
    const until = Date.now() + 120_000;
    for (;;) {
      let cursor: string | undefined;
      do {
        const page = await must('GET', `/api/v1/time/timesheets?limit=100${cursor ? `&cursor=${cursor}` : ''}`, undefined, session);
        for (const s of page.data) sheets.set(s.id, { current: s.current, calculatedAt: s.calculatedAt });
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      if (sheets.size >= employees && [...sheets.values()].every((s) => s.current)) break;
      if (Date.now() > until) throw new Error(`timesheets not current 120 s after the last batch (${[...sheets.values()].filter((s) => !s.current).length} of ${sheets.size} behind)`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const uncounted = [...sheets.entries()].filter(([, s]) => s.calculatedAt === null).map(([id]) => id);
    if (uncounted.length > 0) throw new Error(`${uncounted.length} timesheets say current but were never calculated: ${uncounted.slice(0, 5).join(', ')}`);
    const lags = [...sheets.values()].map((s) => Math.max(0, Date.parse(s.calculatedAt!) - lastAccepted) / 1000);

    const baseline = await plainInsertRate(rt.pgPort, { select: `select * from time.punches where source = 'bench-clocks' order by occurred_at, external_id`, like: 'time.punches', size: batchSize });
    if (baseline.rows !== all.length) throw new Error(`time stored ${baseline.rows} punches, not ${all.length}`);
    const plain = baseline.rate;
    const rate = all.length / seconds;
    console.log(`time ingestion: ${all.length} punches of ${employees} employees (one biweekly period) in batches of ${batchSize}, ${clients} clients, through the gateway; node ${process.versions.node}, ${os.cpus().length} cores, embedded Postgres`);
    console.log(`punches      ${rate.toFixed(0).padStart(7)} punches/s  (${seconds.toFixed(1)} s)  batch p50 ${quantile(latencies, 0.5).toFixed(0)} ms  p99 ${quantile(latencies, 0.99).toFixed(0)} ms  ${JSON.stringify(statuses)}`);
    console.log(`plain insert ${plain.toFixed(0).padStart(7)} rows/s  (pg, one connection, INSERT … VALUES of ${batchSize} of the stored punch rows into a table like time.punches)`);
    console.log(`end to end vs plain insert: ${((rate / plain) * 100).toFixed(1)}%`);
    console.log(`timesheets current after the last batch's 202: p50 ${quantile(lags, 0.5).toFixed(2)} s  p99 ${quantile(lags, 0.99).toFixed(2)} s  last ${Math.max(...lags).toFixed(2)} s  (${sheets.size} timesheets)`);
    console.log(`${rate >= 10_000 ? 'meets' : 'misses'} 10,000 punches/s; timesheets ${quantile(lags, 0.99) < 5 ? 'meet' : 'miss'} p99 < 5 s`);
  } finally {
    await rt.stop();
  }
}

runBench(main);
