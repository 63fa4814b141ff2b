import type { StoredLine } from '../transactions/normalize';
import type { PreStoreStep, PostStoreStep } from '../transactions/pipeline';
import { recordUnmatched, resolveItemRefs } from './match';

/** spec: ingestion rule 3 — fills each line's `itemId` from mappings and the item replica (one query for the whole batch). */
export const matchItems: PreStoreStep = async (ctx, candidates) => {
  const lines = candidates.flatMap((c) => c.normalized.lines);
  if (lines.length === 0) return;
  const ids = await resolveItemRefs(ctx.em, ctx.source, lines);
  lines.forEach((line, i) => {
    line.itemId = ids[i];
  });
};

const unmatched = (lines: StoredLine[] | null | undefined) => (lines ?? []).filter((l) => (l.itemId ?? null) === null);

/**
 * spec: ingestion rule 3 — unmatched lines are stored and their POS items listed in the unmapped-items
 * queue; `sales.unmapped_item` once per new POS item. Counts compare with the row before, so an
 * updated record never counts twice and one that drops the line counts no more.
 */
export const recordUnmappedItems: PostStoreStep = async (ctx, stored) => {
  const records = stored
    .map((s) => ({
      recordId: s.id,
      locationId: s.row.location_id,
      seenAt: s.row.occurred_at,
      lines: unmatched(s.row.lines),
      before: s.before ? unmatched(s.before.lines as StoredLine[]) : null,
    }))
    .filter((r) => r.lines.length > 0 || (r.before?.length ?? 0) > 0);
  if (records.length === 0) return [];
  return recordUnmatched(ctx.em, ctx.source, records);
};
