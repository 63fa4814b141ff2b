/**
 * kill -9 of the all-in-one runtime while POS clients send sales (issue 13, fault tests): clients keep
 * sending and re-send every batch that got no answer; after the restart every acknowledged record is
 * stored exactly once, nothing acknowledged is lost, and each sale was depleted from stock exactly once.
 * Runs the compiled runtime (`npm run build`; `npm test` builds first), on its own embedded Postgres.
 */
import { onHand, sendSales, startStack, storedSales, waitFor, type Stack } from './support';

jest.setTimeout(120_000);

describe('fault: the runtime killed during sales ingestion', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('loses and duplicates nothing acknowledged, and depletes each sale once', async () => {
    const load = sendSales(stack, { prefix: 'K', batches: 30, size: 40, clients: 2, deadlineMs: 60_000 });
    // some batches acknowledged, more in flight: the crash
    await waitFor(20_000, async () => load.ackedBatches() >= 6);
    const ackedBeforeKill = load.acked.size;
    await stack.rt.kill('SIGKILL');
    await stack.rt.restart();
    await load.done;

    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(load.ackedBatches()).toBe(30); // every batch acknowledged in the end (re-sent when unanswered)
    expect(load.statuses.none ?? 0).toBeGreaterThan(0); // the clients did see the crash
    expect(load.statuses['500'] ?? 0).toBe(0);

    const stored = await storedSales(stack, 'K');
    for (const id of load.acked) expect([id, stored.get(id)]).toEqual([id, 1]);
    expect([...stored.values()].every((n) => n === 1)).toBe(true);
    expect(stored.size).toBe(load.acked.size);

    // downstream, once: inventory depleted the item by one per stored sale (+ the probe)
    const expected = String(-(stored.size + 1));
    const settled = await waitFor(30_000, async () => (await onHand(stack)) === expected);
    expect(settled ? expected : await onHand(stack)).toBe(expected);
  });
});
