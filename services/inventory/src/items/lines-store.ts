import { findPlain, type Work } from '@bop/shared';
import { InventoryItem, InventoryUnitOfMeasure } from './entities';
import { judgeLines, type LineInput, type LineUnit, type ResolvedItem, type ResolvedLine } from './lines';

/**
 * The items and base-unit quantities of a document's lines (adjustment, waste, count, transfer …),
 * or a 422 naming every bad line: an unknown item, an archived one (unless `allowArchived`), a unit
 * that does not exist, measures another base unit, or belongs to another item. `path` is the lines'
 * field name in the body (`lines` → `lines[2].itemId`).
 */
export async function resolveLines(w: Work, lines: LineInput[], opts: { path?: string; allowArchived?: boolean } = {}): Promise<ResolvedLine[]> {
  const { em } = w;
  const itemIds = [...new Set(lines.map((l) => l.itemId))];
  const unitIds = [...new Set(lines.flatMap((l) => (l.unitId ? [l.unitId] : [])))];
  const items = new Map<string, ResolvedItem>(
    (await findPlain(em, InventoryItem, { id: { $in: itemIds } })).map((r) => [r.id, { id: r.id, name: r.name, baseUnit: r.baseUnit, status: r.status, cost: r.cost ?? null }]),
  );
  const units = new Map<string, LineUnit>(
    unitIds.length === 0
      ? []
      : (await findPlain(em, InventoryUnitOfMeasure, { id: { $in: unitIds } })).map((r) => [r.id, { id: r.id, base_unit: r.baseUnit, factor: r.factor, item_id: r.itemId ?? null }]),
  );
  return judgeLines(lines, items, units, opts);
}
