import { sqlList, sqlQuery, type EntityManager } from '@bop/shared';
import { judgeLines, type LineInput, type LineUnit, type ResolvedItem, type ResolvedLine } from './lines';

/**
 * The items and base-unit quantities of a document's lines (adjustment, waste, count, transfer …),
 * or a 422 naming every bad line: an unknown item, an archived one (unless `allowArchived`), a unit
 * that does not exist, measures another base unit, or belongs to another item. `path` is the lines'
 * field name in the body (`lines` → `lines[2].itemId`).
 */
export async function resolveLines(em: EntityManager, lines: LineInput[], opts: { path?: string; allowArchived?: boolean } = {}): Promise<ResolvedLine[]> {
  const itemIds = [...new Set(lines.map((l) => l.itemId))];
  const unitIds = [...new Set(lines.flatMap((l) => (l.unitId ? [l.unitId] : [])))];
  const items = new Map(
    (
      await sqlQuery<{ id: string; name: string; base_unit: ResolvedItem['baseUnit']; status: ResolvedItem['status']; cost: string | null }>(
        em,
        `select "id", "name", "base_unit", "status", "cost"::text from "inventory"."items" where "id" = any(?::text[])`,
        [sqlList(itemIds)],
      )
    ).map((r) => [r.id, { id: r.id, name: r.name, baseUnit: r.base_unit, status: r.status, cost: r.cost }]),
  );
  const units = new Map(
    unitIds.length === 0
      ? []
      : (
          await sqlQuery<LineUnit>(
            em,
            `select "id", "base_unit", "factor"::text, "item_id" from "inventory"."units_of_measure" where "id" = any(?::text[])`,
            [sqlList(unitIds)],
          )
        ).map((r) => [r.id, r]),
  );
  return judgeLines(lines, items, units, opts);
}
