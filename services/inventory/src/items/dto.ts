import type { Item, ItemCategory, ItemUnit, StorageArea, UnitOfMeasure } from '@bop/contracts';
import { formatNullable, formatQuantity } from '../ledger/quantity';
import type { InventoryItem, InventoryItemCategory, InventoryStorageArea, InventoryUnitOfMeasure } from './entities';
import type { ItemFields } from './item-fields';

const iso = (d: Date | string) => new Date(d).toISOString();

/** The item record (API and `data.object` of item.created / item.updated); `units` are those that apply to it. */
export function itemDto(r: InventoryItem, units: ItemUnit[]): Item {
  return {
    id: r.id,
    externalId: r.externalId ?? null,
    sku: r.sku ?? null,
    barcodes: r.barcodes,
    name: r.name,
    categoryId: r.categoryId ?? null,
    baseUnit: r.baseUnit,
    cost: formatNullable(r.cost),
    units,
    status: r.status,
    archivedAt: r.archivedAt ? iso(r.archivedAt) : null,
    version: r.version,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** The stored item's writer-controlled fields, to compare with what was sent. */
export function fieldsOf(r: InventoryItem): ItemFields {
  return {
    externalId: r.externalId ?? null,
    sku: r.sku ?? null,
    barcodes: r.barcodes,
    name: r.name,
    categoryId: r.categoryId ?? null,
    baseUnit: r.baseUnit,
    cost: formatNullable(r.cost),
    status: r.status,
  };
}

export function itemUnitDto(u: InventoryUnitOfMeasure): ItemUnit {
  return { id: u.id, name: u.name, factor: formatQuantity(u.factor), itemId: u.itemId ?? null };
}

export function unitDto(u: InventoryUnitOfMeasure): UnitOfMeasure {
  return {
    id: u.id,
    name: u.name,
    baseUnit: u.baseUnit,
    factor: formatQuantity(u.factor),
    itemId: u.itemId ?? null,
    version: u.version,
    createdAt: iso(u.createdAt),
    updatedAt: iso(u.updatedAt),
  };
}

export function categoryDto(c: InventoryItemCategory): ItemCategory {
  return { id: c.id, name: c.name, parentId: c.parentId ?? null, status: c.status, version: c.version, createdAt: iso(c.createdAt), updatedAt: iso(c.updatedAt) };
}

export function storageAreaDto(a: InventoryStorageArea): StorageArea {
  return {
    id: a.id,
    locationId: a.locationId,
    name: a.name,
    countingOrder: a.countingOrder,
    itemIds: a.itemIds,
    status: a.status,
    version: a.version,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}
