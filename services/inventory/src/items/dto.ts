import type { BaseUnit, Item, ItemCategory, ItemUnit, StorageArea, UnitOfMeasure } from '@bop/contracts';
import { formatNullable, formatQuantity } from '../ledger/quantity';
import type { ItemFields, ItemStatus } from './item-fields';

/** Stored rows as `sqlQuery` reads them (snake_case; numerics as strings, timestamps as Dates). */
export interface ItemRow {
  id: string;
  external_id: string | null;
  sku: string | null;
  barcodes: string[];
  name: string;
  category_id: string | null;
  base_unit: BaseUnit;
  cost: string | null;
  status: ItemStatus;
  archived_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface UnitRow {
  id: string;
  name: string;
  base_unit: BaseUnit;
  factor: string;
  item_id: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface CategoryRow {
  id: string;
  name: string;
  parent_id: string | null;
  status: 'active' | 'archived';
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface StorageAreaRow {
  id: string;
  location_id: string;
  name: string;
  counting_order: number;
  item_ids: string[];
  status: 'active' | 'archived';
  version: number;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The item record (API and `data.object` of item.created / item.updated); `units` are those that apply to it. */
export function itemDto(r: ItemRow, units: ItemUnit[]): Item {
  return {
    id: r.id,
    externalId: r.external_id,
    sku: r.sku,
    barcodes: r.barcodes,
    name: r.name,
    categoryId: r.category_id,
    baseUnit: r.base_unit,
    cost: formatNullable(r.cost),
    units,
    status: r.status,
    archivedAt: r.archived_at === null ? null : iso(r.archived_at),
    version: r.version,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The stored item's writer-controlled fields, to compare with what was sent. */
export function fieldsOf(r: ItemRow): ItemFields {
  return {
    externalId: r.external_id,
    sku: r.sku,
    barcodes: r.barcodes,
    name: r.name,
    categoryId: r.category_id,
    baseUnit: r.base_unit,
    cost: formatNullable(r.cost),
    status: r.status,
  };
}

export function itemUnitDto(u: UnitRow): ItemUnit {
  return { id: u.id, name: u.name, factor: formatQuantity(u.factor), itemId: u.item_id };
}

export function unitDto(u: UnitRow): UnitOfMeasure {
  return {
    id: u.id,
    name: u.name,
    baseUnit: u.base_unit,
    factor: formatQuantity(u.factor),
    itemId: u.item_id,
    version: u.version,
    createdAt: iso(u.created_at),
    updatedAt: iso(u.updated_at),
  };
}

export function categoryDto(c: CategoryRow): ItemCategory {
  return { id: c.id, name: c.name, parentId: c.parent_id, status: c.status, version: c.version, createdAt: iso(c.created_at), updatedAt: iso(c.updated_at) };
}

export function storageAreaDto(a: StorageAreaRow): StorageArea {
  return {
    id: a.id,
    locationId: a.location_id,
    name: a.name,
    countingOrder: a.counting_order,
    itemIds: a.item_ids,
    status: a.status,
    version: a.version,
    createdAt: iso(a.created_at),
    updatedAt: iso(a.updated_at),
  };
}
