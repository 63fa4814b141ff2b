import { ArrayType, defineEntity, p, type InferEntity, type Platform, type TransformContext } from '@mikro-orm/core';
import type { BaseUnit } from '@bop/contracts';
import { sqlList } from '@bop/shared';
import type { ItemStatus } from './item-fields';

/** A text[] written with every element quoted, as sqlList does: the ORM's ArrayType leaves a barcode `NULL` unquoted, which Postgres reads as a null element. */
class QuotedTextArray extends ArrayType<string> {
  override convertToDatabaseValue(value: string[] | null, platform: Platform, context?: TransformContext): string | null {
    return Array.isArray(value) ? sqlList(value) : super.convertToDatabaseValue(value, platform, context);
  }
}

/** An item (core schema: inventory.items); `item_barcodes` is kept from `barcodes` by a trigger. */
export const InventoryItem = defineEntity({
  name: 'InventoryItem',
  tableName: 'items',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    sku: p.string().nullable(),
    barcodes: p.type(QuotedTextArray).$type<string[]>(),
    name: p.string(),
    categoryId: p.string().nullable(),
    baseUnit: p.string().$type<BaseUnit>(),
    cost: p.decimal('string').nullable(),
    status: p.string().$type<ItemStatus>(),
    archivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type InventoryItem = InferEntity<typeof InventoryItem>;

/** An item category (company-wide, optionally under a parent). */
export const InventoryItemCategory = defineEntity({
  name: 'InventoryItemCategory',
  tableName: 'item_categories',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    parentId: p.string().nullable(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type InventoryItemCategory = InferEntity<typeof InventoryItemCategory>;

/** A unit of measure: company-wide for a base unit (no item), or an item's own. */
export const InventoryUnitOfMeasure = defineEntity({
  name: 'InventoryUnitOfMeasure',
  tableName: 'units_of_measure',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    baseUnit: p.string().$type<BaseUnit>(),
    factor: p.decimal('string'),
    itemId: p.string().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type InventoryUnitOfMeasure = InferEntity<typeof InventoryUnitOfMeasure>;

/** A storage area of a location, with the items counted in it in counting order. */
export const InventoryStorageArea = defineEntity({
  name: 'InventoryStorageArea',
  tableName: 'storage_areas',
  properties: {
    id: p.string().primary(),
    locationId: p.string(),
    name: p.string(),
    countingOrder: p.integer(),
    itemIds: p.json<string[]>(),
    status: p.string().$type<'active' | 'archived'>(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type InventoryStorageArea = InferEntity<typeof InventoryStorageArea>;

/** MikroORM entities of the items area. */
export const itemsEntities = [InventoryItem, InventoryItemCategory, InventoryUnitOfMeasure, InventoryStorageArea] as const;
