import type { EventEnvelope } from '@bop/contracts';
import { lockForTransaction, newId, newIdWithPrefix, type ConsumedMessage, type ConsumerDef, type ServiceRuntime, type Work } from '@bop/shared';
import { salesConsumers } from '../sales/consumers';
import { laborConsumers } from '../labor/consumers';
import { scheduleConsumers } from '../schedule/consumers';
import { wasteConsumers } from '../waste/consumers';
import { cashConsumers } from '../cash/consumers';
import { SalesContribution, SalesDay, SalesInterval } from '../sales/entities';
import { LaborHours, LaborInterval, LaborTimesheet } from '../labor/entities';
import { ScheduledShift } from '../schedule/entities';
import { WasteRecord } from '../waste/entities';
import { OverShortDay } from '../cash/entities';
import { Rebuild } from './entities';

/** The lock between the read models' consumers (shared) and a rebuild clearing them (exclusive). */
const readModelsLock = (w: Work) => `${w.schema}.read-models`;

/** A read model's consumer, holding the read models (shared) for its transaction: a rebuild never clears them under it. */
function holding(def: ConsumerDef): ConsumerDef {
  return {
    ...def,
    async handle(ctx) {
      await lockForTransaction(ctx.em, readModelsLock(ctx), { shared: true });
      await def.handle(ctx);
    },
    ...(def.handleBatch
      ? {
          async handleBatch(ctx) {
            await lockForTransaction(ctx.em, readModelsLock(ctx), { shared: true });
            await def.handleBatch!(ctx);
          },
        }
      : {}),
  };
}

/** The consumers of insights' read models (sales, labor, scheduled shifts, waste, over/short). */
export const readModelConsumers: ConsumerDef[] = [...salesConsumers, ...laborConsumers, ...scheduleConsumers, ...wasteConsumers, ...cashConsumers].map(holding);

/** The read models' tables, by name (the replicas of organization and people are the kit's, kept by their own consumers). */
export const READ_MODELS = {
  sales_contributions: SalesContribution,
  sales_days: SalesDay,
  sales_intervals: SalesInterval,
  labor_timesheets: LaborTimesheet,
  labor_hours: LaborHours,
  labor_intervals: LaborInterval,
  scheduled_shifts: ScheduledShift,
  waste_records: WasteRecord,
  over_short_days: OverShortDay,
} as const;

const MARKER = 'insights.rebuild.marker';
/** a rebuild older than this that never finished (its process died) no longer holds the alert rules */
export const REBUILD_HOLD_MS = 6 * 3_600_000;

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
  rows: Record<string, { before: number; after: number }>;
}

const rowCounts = (rt: ServiceRuntime<any>) =>
  rt.read(async (w) => Object.fromEntries(await Promise.all(Object.entries(READ_MODELS).map(async ([name, entity]) => [name, await w.em.count(entity as never, {})] as const))));

/**
 * Rebuilds insights' read models from what the bus keeps: clears them (waiting for the consumers'
 * running transactions), then replays every retained event of their topics through the same
 * consumers, with a group of its own, up to a marker it published after the clear — so every event
 * the live consumers had applied before the clear is read again. Events after the marker are the live
 * consumers' as usual; both apply each record by its version, so their order does not matter. Alert
 * rules wait while it runs. The Postgres bus only: its log has one order over every topic; Kafka
 * orders each partition alone, so no marker can say the replay has read everything before it.
 */
export async function rebuildReadModels(rt: ServiceRuntime<any>, opts: { onProgress?: (p: RebuildProgress) => void; progressEveryMs?: number } = {}): Promise<RebuildResult> {
  if (rt.bus.kind !== 'postgres') throw new Error(`insights rebuild: the ${rt.bus.kind} bus has no single order over its topics to replay to a marker; rebuild needs BUS=postgres`);
  const started = Date.now();
  const id = newIdWithPrefix('rbd');
  const before = await rowCounts(rt);
  await rt.write(async (w) => {
    await lockForTransaction(w.em, readModelsLock(w));
    w.em.create(Rebuild, { id, startedAt: w.now, finishedAt: null, events: 0, status: 'running' });
    for (const entity of Object.values(READ_MODELS)) await w.em.nativeDelete(entity as never, {});
    await w.em.flush();
  });
  const markerId = newId('event');
  await rt.bus.publish([
    {
      topic: 'insights',
      key: id,
      eventId: markerId,
      type: MARKER,
      payload: { id: markerId, type: MARKER, createdAt: rt.clock.now().toISOString(), apiVersion: 'v1', actor: { type: 'system', id: null }, locationId: null, data: { object: { rebuildId: id } } },
    },
  ]);

  const byType = new Map<string, ConsumerDef[]>();
  for (const def of readModelConsumers) for (const type of def.types as string[]) byType.set(type, [...(byType.get(type) ?? []), def]);
  const group = `insights.rebuild.${id}`;
  let applied = 0;
  let finish!: () => void;
  let fail!: (err: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const handler = async (batch: ConsumedMessage[]) => {
    const wanted = batch.filter((m) => !m.undecodable && byType.has(m.type));
    if (wanted.length > 0) {
      await rt.write(async (w) => {
        for (const def of readModelConsumers) {
          const mine = wanted.filter((m) => (def.types as string[]).includes(m.type));
          if (mine.length === 0) continue;
          const events = mine.map((message) => ({ event: message.payload as unknown as EventEnvelope, message }));
          if (def.handleBatch) await def.handleBatch({ ...w, events });
          else for (const e of events) await def.handle({ ...w, ...e });
        }
      });
      applied += wanted.length;
    }
    if (batch.some((m) => m.type === MARKER && m.eventId === markerId)) finish();
  };
  const topics = [...new Set([...readModelConsumers.flatMap((d) => d.topics), 'insights'])];
  const sub = await rt.bus.subscribe({ group, topics, types: [...byType.keys(), MARKER], batchSize: 500, handler, startAt: 'earliest', onError: (err) => rt.log.warn({ err: (err as Error).message }, 'insights rebuild: a batch failed; retrying') });
  const report = async () => opts.onProgress?.({ applied, behind: (await rt.bus.groupLag?.([group]))?.[0]?.lag ?? null });
  const timer = setInterval(() => void report().catch(fail), opts.progressEveryMs ?? 1000);
  try {
    await done;
  } finally {
    clearInterval(timer);
    await sub.stop();
  }
  await report();
  await rt.write(async (w) => {
    const r = await w.em.findOneOrFail(Rebuild, { id });
    Object.assign(r, { finishedAt: w.now, events: applied, status: 'done' });
    await w.em.flush();
  });
  const after = await rowCounts(rt);
  return { id, applied, ms: Date.now() - started, rows: Object.fromEntries(Object.keys(READ_MODELS).map((k) => [k, { before: before[k], after: after[k] }])) };
}

/** Whether a rebuild is running (started within REBUILD_HOLD_MS and not finished): alert rules wait for it. */
export async function rebuildRunning(w: Work): Promise<boolean> {
  return (await w.em.count(Rebuild, { status: 'running', startedAt: { $gt: new Date(w.now.getTime() - REBUILD_HOLD_MS) } })) > 0;
}
