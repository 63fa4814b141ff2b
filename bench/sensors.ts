/**
 * Sensor readings (issue 19): BENCH_SENSORS sensors (1,000) sending one reading a minute for a
 * simulated BENCH_DAYS (7) days, ending now, to POST /api/v1/sensor-readings through the gateway of
 * the compiled runtime (all services, the embedded default). Sensors report through hubs of
 * BENCH_HUB_SIZE (50): a hub sends one batch of its sensors' readings per BENCH_BATCH/BENCH_HUB_SIZE
 * minutes (1,000 readings, 20 minutes); BENCH_CLIENTS (4) hubs send at once, each hub in time order.
 * Every sensor leaves its range once a simulated day for 20 minutes (delay 15): one `sensor.out_of_range`
 * when the 15th minute's reading arrives, one `back_in_range` with the first reading back.
 * Prints readings/s against, as the baseline in the same run, the same reading rows inserted into a
 * table like operations.sensor_readings with plain multi-row INSERTs over one pg connection; and the
 * time from the 202 of the batch holding the deciding reading to the webhook's receipt at a local
 * receiver (a child process): p50, p99. Targets (issue): >= 20,000 readings/s; p99 < 2 s.
 *
 *   npm run bench:sensors     (BENCH_SENSORS=1000 BENCH_DAYS=7 BENCH_HUB_SIZE=50 BENCH_BATCH=1000 BENCH_CLIENTS=4 change the load)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { plainInsertRate } from './plain-insert';
import { benchRequest, benchSession, startRuntimeProcess } from './runtime-process';
import { runBench } from './entry';

const sensors = Number(process.env.BENCH_SENSORS ?? 1000);
const days = Number(process.env.BENCH_DAYS ?? 7);
const hubSize = Number(process.env.BENCH_HUB_SIZE ?? 50);
const batchSize = Number(process.env.BENCH_BATCH ?? 1000);
const clients = Number(process.env.BENCH_CLIENTS ?? 4);
const baselineRows = Number(process.env.BENCH_BASELINE_ROWS ?? 500_000);
const minutes = Math.round(days * 1440);
/** minutes per batch of one hub */
const windowMinutes = Math.max(1, Math.floor(batchSize / hubSize));
const EXCURSION_MINUTES = 20;
const DELAY = 15;

const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(p * s.length))];
};

/** The receiver: answers 200 at once and reports (state, sensorId, readAt, receipt time) to the parent. */
const RECEIVER = `
const http = require('node:http');
let buf = [];
setInterval(() => { if (buf.length) { process.send(buf); buf = []; } }, 20);
const server = http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(200); res.end();
    try { const o = JSON.parse(raw).data.object; buf.push([o.state, o.sensorId, o.readAt, at]); } catch {}
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
`;

/** The minute (from the start) a sensor's excursion begins on a day: early in one of its hub's windows, so the 15th minute's reading comes in the same batch. */
function excursionStart(sensor: number, day: number): number {
  const window = (sensor * 7 + day * 13) % Math.floor((1440 - 60) / windowMinutes);
  return day * 1440 + window * windowMinutes + (sensor % Math.max(1, windowMinutes - DELAY));
}

async function main(): Promise<void> {
  const receipts: Array<[string, string, string, number]> = [];
  const receiver = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const receiverPort = await new Promise<number>((resolve) => {
    receiver.on('message', (m: unknown) => {
      if (Array.isArray(m)) receipts.push(...(m as Array<[string, string, string, number]>));
      else resolve((m as { port: number }).port);
    });
  });
  const rt = await startRuntimeProcess({ API_INGEST_RATE_LIMIT_PER_MIN: '100000000', API_RATE_LIMIT_PER_MIN: '100000000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'warn' });
  try {
    const session = await benchSession(rt.base);
    const location = await benchRequest(rt.base, 'POST', '/api/v1/locations', { name: 'Bench store', timezone: 'Europe/Berlin', externalId: 'BENCH-S' }, session);
    const reg = await benchRequest(rt.base, 'POST', '/api/v1/integrations', { manifest: { name: 'Bench probes', version: '1.0.0', description: 'bench', scopes: ['operations:write', 'operations:read'], webhooks: [] } }, session);
    const key: string = reg.apiKey;
    await benchRequest(rt.base, 'POST', '/api/v1/webhook-endpoints', { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['sensor.out_of_range'], description: 'bench receiver' }, session);

    const setupStarted = performance.now();
    const ids: string[] = new Array(sensors);
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < sensors) {
          const i = next++;
          const s = await benchRequest(rt.base, 'PUT', `/api/v1/sensors/external/BENCH-S${i}`, { name: `Probe ${i}`, kind: 'temperature', unit: 'C', min: '0', max: '5', alarmDelayMinutes: DELAY, locationId: location.id }, key);
          ids[i] = s.id;
        }
      }),
    );
    console.log(`set-up: ${sensors} sensors through PUT /sensors/external in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`);

    // the simulated week ends at the minute before now (readings may not be ahead of the service's clock)
    const start = Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000;
    const excursions = ids.map((_, i) => Array.from({ length: Math.ceil(days) }, (__, d) => excursionStart(i, d)).filter((m) => m + EXCURSION_MINUTES < minutes));
    const valueOf = (i: number, m: number) => {
      const out = excursions[i].some((e) => m >= e && m < e + EXCURSION_MINUTES);
      return out ? `${8 + ((i + m) % 7) / 10}` : `${2 + ((i * 31 + m) % 25) / 10}`;
    };
    const hubs = Math.ceil(sensors / hubSize);
    // every body serialised before the clock starts; per hub in time order; `decides`: the readings that decide an alarm event
    const perHub: Array<Array<{ body: string; decides: string[] }>> = Array.from({ length: hubs }, () => []);
    let total = 0;
    for (let h = 0; h < hubs; h++) {
      const members = ids.map((_, i) => i).filter((i) => Math.floor(i / hubSize) === h);
      for (let w = 0; w < minutes; w += windowMinutes) {
        const readings: Array<{ sensorId: string; readAt: string; value: string }> = [];
        const decides: string[] = [];
        for (const i of members) {
          for (let m = w; m < Math.min(minutes, w + windowMinutes); m++) {
            const readAt = new Date(start + m * 60_000).toISOString();
            readings.push({ sensorId: ids[i], readAt, value: valueOf(i, m) });
            if (excursions[i].some((e) => m === e + DELAY)) decides.push(`out_of_range|${ids[i]}|${readAt}`);
            if (excursions[i].some((e) => m === e + EXCURSION_MINUTES)) decides.push(`back_in_range|${ids[i]}|${readAt}`);
          }
        }
        total += readings.length;
        perHub[h].push({ body: JSON.stringify({ source: `bench-hub-${h}`, readings }), decides });
      }
    }

    const accepted = new Map<string, number>();
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let nextHub = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Math.min(clients, hubs) }, async () => {
        while (nextHub < hubs) {
          const h = nextHub++;
          for (const b of perHub[h]) {
            const t0 = performance.now();
            const res = await fetch(`${rt.base}/api/v1/sensor-readings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: b.body });
            const answer = (await res.json()) as { results: Array<{ status: string; errors?: unknown }> };
            const at = Date.now();
            latencies.push(performance.now() - t0);
            if (res.status !== 202) throw new Error(`sensor-readings ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
            for (const r of answer.results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            for (const d of b.decides) accepted.set(d, at);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (statuses.rejected) throw new Error(`${statuses.rejected} readings were rejected`);

    // every alarm event delivered: out_of_range and back_in_range per excursion
    const expected = accepted.size;
    const until = Date.now() + 120_000;
    while (new Set(receipts.map((r) => `${r[0]}|${r[1]}|${r[2]}`)).size < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    const delays: Record<string, number[]> = { out_of_range: [], back_in_range: [] };
    const seen = new Set<string>();
    let unexpected = 0;
    for (const [state, sensorId, readAt, at] of receipts) {
      const k = `${state}|${sensorId}|${readAt}`;
      const sent = accepted.get(k);
      if (sent === undefined) unexpected += 1;
      else if (!seen.has(k)) delays[state].push((at - sent) / 1000);
      seen.add(k);
    }

    const { rate: plain } = await plainInsertRate(rt.pgPort, { select: `select * from operations.sensor_readings order by read_at, sensor_id limit $1`, params: [Math.min(total, baselineRows)], like: 'operations.sensor_readings', size: batchSize });
    const rate = total / seconds;
    const all = [...delays.out_of_range, ...delays.back_in_range];
    console.log(
      `sensor readings: ${total} readings of ${sensors} sensors (one a minute for ${days} days) in batches of ${hubSize} sensors x ${windowMinutes} minutes, ${clients} clients, through the gateway; node ${process.versions.node}, ${os.cpus().length} cores, embedded Postgres`,
    );
    console.log(`readings     ${rate.toFixed(0).padStart(7)} readings/s  (${seconds.toFixed(1)} s)  batch p50 ${quantile(latencies, 0.5).toFixed(0)} ms  p99 ${quantile(latencies, 0.99).toFixed(0)} ms  ${JSON.stringify(statuses)}`);
    console.log(`plain insert ${plain.toFixed(0).padStart(7)} rows/s  (pg, one connection, INSERT … VALUES of ${batchSize} of the stored reading rows into a table like operations.sensor_readings)`);
    console.log(`end to end vs plain insert: ${((rate / plain) * 100).toFixed(1)}%`);
    console.log(
      `202 → sensor.out_of_range webhook: out_of_range p50 ${quantile(delays.out_of_range, 0.5).toFixed(3)} s  p99 ${quantile(delays.out_of_range, 0.99).toFixed(3)} s;  back_in_range p50 ${quantile(delays.back_in_range, 0.5).toFixed(3)} s  p99 ${quantile(delays.back_in_range, 0.99).toFixed(3)} s  (${seen.size - unexpected} of ${expected} events received, ${unexpected} unexpected)`,
    );
    console.log(`${rate >= 20_000 ? 'meets' : 'misses'} 20,000 readings/s; webhooks ${quantile(all, 0.99) < 2 ? 'meet' : 'miss'} p99 < 2 s`);
  } finally {
    await rt.stop();
    receiver.kill();
  }
}

runBench(main);
