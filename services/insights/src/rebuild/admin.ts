import { performance } from 'node:perf_hooks';
import type { EventEnvelope } from '@bop/contracts';
import { newId, newIdWithPrefix, type ConsumedMessage, type ConsumerDef, type ServiceRuntime } from '@bop/shared';
import { readModelConsumers } from './consumers';
import { finishRebuild, readModelRows, startRebuild, type ReadModel } from './store';

const MARKER = 'insights.rebuild.marker';
/** the replay's consumer group (one rebuild runs at a time) */
const REPLAY_GROUP = 'insights.rebuild';

export interface RebuildProgress {
  /** events of the read models applied so far */
  applied: number;
  /** messages of the bus the replay has not read yet (all topics), when the bus says */
  behind: number | null;
}

export interface RebuildResult {
  id: string;
  applied: number;
  ms: number;
  rows: Record<ReadModel, { before: number; after: number }>;
  /** events their consumer refused (or the bus could not decode): left out, as the live consumers parked them */
  skipped: Array<{ eventId: string; type: string; position: string; error: string }>;
}

/**
 * The ops CLI's `insights rebuild`: rebuilds insights' read models from what the bus keeps. Clears
 * them (waiting for the consumers' running transactions), then replays every kept event of their
 * topics through the same consumers, with a group of its own, up to the bus's end after the clear —
 * so every event the live consumers had applied before the clear is read again. On the Postgres bus,
 * whose log has one order over every topic, that end is a marker the rebuild publishes; on Kafka, which
 * orders each partition alone, it is each partition's end offset read after the clear (no marker in
 * other areas' topics, which outside consumers read). Events after it are the live consumers' as
 * usual; both apply each record by its version, so their order does not matter. An event the bus holds
 * twice is applied once. Alert rules wait while it runs.
 */
export async function rebuildReadModels(rt: ServiceRuntime<any>, opts: { onProgress?: (p: RebuildProgress) => void; progressEveryMs?: number } = {}): Promise<RebuildResult> {
  const started = performance.now();
  const id = newIdWithPrefix('rbd');
  const before = await rt.read((w) => readModelRows(w));
  const at = await rt.write((w) => startRebuild(w, id));
  // one group for every rebuild: what a rebuild cut short left is forgotten, and this one reads from the start
  await rt.bus.forget?.(REPLAY_GROUP);
  const readModelTopics = [...new Set(readModelConsumers.flatMap((d) => d.topics))];
  let topics: string[];
  /** whether the replay has read up to the end, after this batch */
  let reached: (batch: ConsumedMessage[]) => boolean;
  if (rt.bus.partitionEnds) {
    // each partition up to its last offset now (an empty one, or one whose messages retention deleted, has none to read)
    const last = new Map<string, bigint>();
    for (const p of await rt.bus.partitionEnds(readModelTopics)) if (BigInt(p.high) > BigInt(p.low)) last.set(`${p.topic}:${p.partition}`, BigInt(p.high) - 1n);
    topics = readModelTopics;
    reached = (batch) => {
      for (const m of batch) {
        const [partition, offset] = m.position.split(':');
        const key = `${m.topic}:${partition}`;
        if (last.has(key) && BigInt(offset) >= last.get(key)!) last.delete(key);
      }
      return last.size === 0;
    };
  } else {
    const markerId = newId('event');
    await rt.bus.publish([
      {
        topic: 'insights',
        key: id,
        eventId: markerId,
        type: MARKER,
        payload: { id: markerId, type: MARKER, createdAt: at.toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: null, data: { object: { rebuildId: id } } },
      },
    ]);
    topics = [...new Set([...readModelTopics, 'insights'])];
    reached = (batch) => batch.some((m) => m.type === MARKER && m.eventId === markerId);
  }

  const byType = new Map<string, ConsumerDef[]>();
  for (const def of readModelConsumers) for (const type of def.types as string[]) byType.set(type, [...(byType.get(type) ?? []), def]);
  const group = REPLAY_GROUP;
  let applied = 0;
  let finish!: () => void;
  let fail!: (err: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const skipped: RebuildResult['skipped'] = [];
  // the messages in one unit, each consumer's events in bus order (a batch handler takes them at once)
  const apply = (messages: ConsumedMessage[]) =>
    rt.write(async (w) => {
      for (const def of readModelConsumers) {
        const events = messages.filter((m) => (def.types as string[]).includes(m.type)).map((message) => ({ event: message.payload as unknown as EventEnvelope, message }));
        if (events.length === 0) continue;
        if (def.handleBatch && events.length > 1) await def.handleBatch({ ...w, events });
        else for (const e of events) await def.handle({ ...w, ...e });
      }
    });
  // the event ids this replay has applied (or left out): an event the bus holds twice (a relay's
  // at-least-once retry, a re-publication) is applied once, as the live consumers' processed_events
  // make it — the stock flows add a posting's sums, so a second application would count them twice
  const seen = new Set<string>();
  const handler = async (batch: ConsumedMessage[]) => {
    const wanted = batch.filter((m) => byType.has(m.type) && !seen.has(m.eventId)).filter((m, i, all) => all.findIndex((x) => x.eventId === m.eventId) === i);
    for (const m of wanted) if (m.undecodable) skipped.push({ eventId: m.eventId, type: m.type, position: m.position, error: m.undecodable });
    const decoded = wanted.filter((m) => !m.undecodable);
    if (decoded.length > 0) {
      try {
        await apply(decoded);
      } catch {
        // one at a time: an event its consumer refuses (a producer's bug, parked in dead letters by the
        // live consumer too) is reported and left out, the others applied
        for (const m of decoded) {
          try {
            await apply([m]);
          } catch (err) {
            skipped.push({ eventId: m.eventId, type: m.type, position: m.position, error: (err as Error).message });
          }
        }
      }
      applied += decoded.length - skipped.filter((x) => decoded.some((m) => m.eventId === x.eventId)).length;
    }
    // only once the batch's unit committed: a batch that failed is retried whole
    for (const m of wanted) seen.add(m.eventId);
    if (reached(batch)) finish();
  };
  // nothing to read (Kafka, every partition empty): done at once
  if (reached([])) finish();
  const sub = await rt.bus.subscribe({
    group,
    topics,
    types: [...byType.keys(), MARKER],
    batchSize: 500,
    startAt: 'earliest',
    handler,
    onError: (err) => rt.log.warn({ err: (err as Error).message }, 'insights rebuild: a batch failed; retrying it'),
  });
  // `applied` read once the lag has come: a report begun earlier that ends after the last one says no less than it
  const report = async () => {
    const behind = (await rt.bus.groupLag?.([group]))?.[0]?.lag ?? null;
    opts.onProgress?.({ applied, behind });
  };
  const timer = setInterval(() => void report().catch(fail), opts.progressEveryMs ?? 1000);
  try {
    await done;
    await report();
  } catch (err) {
    // the read models are partial: said, and the alert rules no longer held (run it again)
    await rt.write((w) => finishRebuild(w, id, applied, 'failed'));
    throw err;
  } finally {
    clearInterval(timer);
    await sub.stop();
    // a replay keeps no position: it would hold back nothing, but lag behind everything after it
    await rt.bus.forget?.(group);
  }
  await rt.write((w) => finishRebuild(w, id, applied, 'done'));
  const after = await rt.read((w) => readModelRows(w));
  const rows = Object.fromEntries(Object.keys(before).map((k) => [k, { before: before[k as ReadModel], after: after[k as ReadModel] }])) as RebuildResult['rows'];
  return { id, applied, ms: Math.round(performance.now() - started), rows, skipped };
}
