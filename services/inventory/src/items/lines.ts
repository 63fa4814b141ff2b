import type Decimal from 'decimal.js';
import { ValidationError, type FieldError } from '@bop/shared';
import { toBase } from '../ledger/quantity';

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

/** A unit of measure as a line names it (as stored: snake_case, the factor as text). */
export interface LineUnit {
  id: string;
  base_unit: string;
  factor: string;
  item_id: string | null;
}

/**
 * The lines judged against the items and units they name (see `resolveLines` in lines-store.ts):
 * the items and base-unit quantities, or a 422 naming every bad line.
 */
export function judgeLines(lines: LineInput[], items: Map<string, ResolvedItem>, units: Map<string, LineUnit>, opts: { path?: string; allowArchived?: boolean } = {}): ResolvedLine[] {
  const path = opts.path ?? 'lines';
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
