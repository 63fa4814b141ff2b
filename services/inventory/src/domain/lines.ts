import type Decimal from 'decimal.js';
import { sqlQuery, ValidationError, type EntityManager, type FieldError } from '@bop/shared';
import { toBase } from './quantity';

export interface LineInput {
  itemId: string;
  /** in the unit `unitId` names, else in the item's base unit */
  quantity: string;
  unitId?: string | null;
}

export interface ResolvedItem {
  id: string;
  name: string;
  baseUnit: 'each' | 'g' | 'ml';
  status: 'active' | 'archived';
  cost: string | null;
}

export interface ResolvedLine {
  item: ResolvedItem;
  /** the quantity in the item's base unit (six decimals) */
  base: Decimal;
}

/**
 * The items and base-unit quantities of a document's lines (adjustment, waste, count, transfer …),
 * or a 422 naming every bad line: an unknown item, an archived one (unless `allowArchived`), a unit
 * that does not exist, measures another base unit, or belongs to another item. `path` is the lines'
 * field name in the body (`lines` → `lines[2].itemId`).
 */
export async function resolveLines(em: EntityManager, lines: LineInput[], opts: { path?: string; allowArchived?: boolean } = {}): Promise<ResolvedLine[]> {
  const path = opts.path ?? 'lines';
  const itemIds = [...new Set(lines.map((l) => l.itemId))];
  const unitIds = [...new Set(lines.flatMap((l) => (l.unitId ? [l.unitId] : [])))];
  const items = new Map(
    (
      await sqlQuery<{ id: string; name: string; base_unit: ResolvedItem['baseUnit']; status: ResolvedItem['status']; cost: string | null }>(
        em,
        `select "id", "name", "base_unit", "status", "cost"::text from "inventory"."items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [JSON.stringify(itemIds)],
      )
    ).map((r) => [r.id, { id: r.id, name: r.name, baseUnit: r.base_unit, status: r.status, cost: r.cost }]),
  );
  const units = new Map(
    unitIds.length === 0
      ? []
      : (
          await sqlQuery<{ id: string; base_unit: string; factor: string; item_id: string | null }>(
            em,
            `select "id", "base_unit", "factor"::text, "item_id" from "inventory"."units_of_measure" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`,
            [JSON.stringify(unitIds)],
          )
        ).map((r) => [r.id, r]),
  );
  const errors: FieldError[] = [];
  const resolved: ResolvedLine[] = [];
  lines.forEach((l, i) => {
    const item = items.get(l.itemId);
    if (!item) {
      errors.push({ path: `${path}[${i}].itemId`, message: `No item ${l.itemId}.` });
      return;
    }
    if (item.status === 'archived' && !opts.allowArchived) {
      errors.push({ path: `${path}[${i}].itemId`, message: `Item ${l.itemId} is archived.` });
      return;
    }
    let factor = '1';
    if (l.unitId) {
      const unit = units.get(l.unitId);
      if (!unit) {
        errors.push({ path: `${path}[${i}].unitId`, message: `No unit of measure ${l.unitId}.` });
        return;
      }
      if (unit.base_unit !== item.baseUnit) {
        errors.push({ path: `${path}[${i}].unitId`, message: `Unit ${l.unitId} measures ${unit.base_unit}; item ${item.id} is kept in ${item.baseUnit}.` });
        return;
      }
      if (unit.item_id !== null && unit.item_id !== item.id) {
        errors.push({ path: `${path}[${i}].unitId`, message: `Unit ${l.unitId} belongs to item ${unit.item_id}.` });
        return;
      }
      factor = unit.factor;
    }
    resolved.push({ item, base: toBase(l.quantity, factor) });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  return resolved;
}
