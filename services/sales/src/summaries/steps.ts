import type { EntityManager } from '@bop/shared';
import type { PreStoreStep, PostStoreStep } from '../transactions/pipeline';
import { dayString } from './dto';

export type SourceMode = 'transactions' | 'summaries';

/**
 * spec: ingestion rule 9 — claims `mode` for each (location, source) not claimed yet and answers every
 * pair's mode. Once a pair is claimed (the steady state) this is one read. Race-safe: the insert
 * waits for a concurrent claim of the same pair to commit, and the read after it (a new snapshot)
 * sees that claim. `lock` locks the pairs (summary batches of a pair take turns).
 */
export async function claimSourceModes(em: EntityManager, source: string, locationIds: string[], mode: SourceMode, now: Date, lock = false): Promise<Map<string, SourceMode>> {
  const wanted = [...new Set(locationIds)].sort();
  const read = async (): Promise<Map<string, SourceMode>> => {
    const rows: Array<{ location_id: string; mode: SourceMode }> = await em.execute(
      `select "location_id", "mode" from "sales"."source_modes"
       where "source" = ? and "location_id" = any(array(select jsonb_array_elements_text(?::jsonb)))
       order by "location_id"${lock ? ' for update' : ''}`,
      [source, JSON.stringify(wanted)],
    );
    return new Map(rows.map((r) => [r.location_id, r.mode]));
  };
  const modes = await read();
  const missing = wanted.filter((id) => !modes.has(id));
  if (missing.length === 0) return modes;
  await em.execute(
    `insert into "sales"."source_modes" ("location_id", "source", "mode", "claimed_at")
     select x.value, ?, ?, ? from jsonb_array_elements_text(?::jsonb) as x(value)
     order by x.value
     on conflict ("location_id", "source") do nothing`,
    [source, mode, now, JSON.stringify(missing)],
  );
  return read();
}

export const ruleNine = 'transactions and summaries must not both be sent for the same location and source (spec: ingestion rule 9)';

/**
 * spec: ingestion rule 9 — transactions and summaries must not both be sent for the same location
 * and source. Claims `transactions` for the batch's (location, source) pairs and rejects the
 * transactions of a pair that already sent summaries (path `source`).
 */
export const refuseWhereSummariesWereSent: PreStoreStep = async (ctx, candidates) => {
  const modes = await claimSourceModes(ctx.em, ctx.source, candidates.map((c) => c.location.id), 'transactions', ctx.now);
  for (const c of candidates) {
    if (modes.get(c.location.id) === 'summaries') {
      c.errors.push({ path: 'source', message: `Source ${ctx.source} sends summaries for location ${c.location.id}, so it cannot also send transactions there: ${ruleNine}. Use another source for transactions.` });
    }
  }
};

/**
 * Marks the (location, source, business day)s a write touched for the background day-summary
 * rebuild (spec: ingestion rules 5 and 7): the new row's day and, for an update, the day it had
 * before (a sale moved to another day, or another location, changes both). One insert per batch;
 * the worker coalesces repeated marks of a day into one rebuild.
 */
export const markDaysForRebuild: PostStoreStep = async (ctx, stored) => {
  const days = new Map<string, { location_id: string; business_day: string }>();
  const mark = (locationId: unknown, day: unknown) => {
    if (typeof locationId !== 'string' || day == null) return;
    const d = dayString(day);
    days.set(`${locationId}|${d}`, { location_id: locationId, business_day: d });
  };
  for (const s of stored) {
    mark(s.row.location_id, s.row.business_day);
    if (s.before) mark(s.before.location_id, s.before.business_day);
  }
  if (days.size > 0) {
    await ctx.em.execute(
      `insert into "sales"."summary_rebuilds" ("location_id", "source", "business_day", "requested_at")
       select x.location_id, ?, x.business_day, ? from jsonb_to_recordset(?::jsonb) as x(location_id text, business_day date)`,
      [ctx.source, ctx.now, JSON.stringify([...days.values()])],
    );
  }
  return [];
};
