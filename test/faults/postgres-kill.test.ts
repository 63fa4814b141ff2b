/**
 * kill -9 of the embedded Postgres server while POS clients send sales (issue 13 item 1): the runtime
 * stays up and restarts its Postgres, `/api/ready` answers 503 during the outage and 200 again by
 * itself, requests meanwhile get 503 `service_unavailable` with Retry-After (or succeed), never a 500,
 * and after it no acknowledged sale is lost or duplicated and each is depleted from stock once (the
 * relays and consumers resumed by themselves). Runs the compiled runtime (`npm test` builds first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { call, onHand, sendSales, sleep, startStack, storedSales, waitFor, type Stack } from './support';

jest.setTimeout(120_000);

describe('fault: the database killed under load', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps the runtime up, answers 503 (never 500) during the outage and recovers by itself', async () => {
    const load = sendSales(stack, { prefix: 'P', batches: 40, size: 25, clients: 2, deadlineMs: 60_000, pauseMs: 50 });
    await waitFor(20_000, async () => load.ackedBatches() >= 6);
    const runtime = stack.rt.child()!;
    const pgPid = Number(fs.readFileSync(path.join(stack.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pgPid, 'SIGKILL');

    // readiness: 503 while the database is away, then 200 again without anyone restarting the runtime
    const readiness: number[] = [];
    let notReady = false;
    let readyAgain = false;
    const until = Date.now() + 40_000;
    while (!readyAgain && Date.now() < until) {
      const r = await call(stack.rt.base, 'GET', '/api/ready');
      readiness.push(r ? r.status : 0);
      if (r?.status === 503) notReady = true;
      if (notReady && r?.status === 200) readyAgain = true;
      await sleep(100);
    }
    await load.done;

    expect(runtime.exitCode).toBeNull();
    expect(runtime.signalCode).toBeNull();
    expect(stack.rt.child()).toBe(runtime); // the same process throughout: not restarted
    expect(readiness).not.toContain(0); // the runtime always answered
    expect(notReady).toBe(true);
    expect(readyAgain).toBe(true);
    expect(fs.readFileSync(stack.output, 'utf8')).toMatch(/embedded Postgres restarted/);

    // what the clients saw: 202 or 503 service_unavailable with Retry-After; no 500, always an answer
    // a 500 names itself: the runtime's error lines go into the failure
    const errors = (load.statuses['500'] ?? 0) > 0 ? fs.readFileSync(stack.output, 'utf8').split('\n').filter((l) => /"level":50/.test(l)) : [];
    expect({ internalErrors: load.statuses['500'] ?? 0, errors }).toEqual({ internalErrors: 0, errors: [] });
    expect(load.statuses.none ?? 0).toBe(0);
    for (const r of load.refusals) expect(r).toEqual({ status: 503, code: 'service_unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
    expect(load.ackedBatches()).toBe(40);

    // nothing acknowledged lost or duplicated; each sale depleted once (consumers resumed by themselves)
    const stored = await storedSales(stack, 'P');
    for (const id of load.acked) expect([id, stored.get(id)]).toEqual([id, 1]);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(stored.size).toBe(load.acked.size);
    const expected = String(-(stored.size + 1));
    const settled = await waitFor(30_000, async () => (await onHand(stack)) === expected);
    expect(settled ? expected : await onHand(stack)).toBe(expected);
  });
});
