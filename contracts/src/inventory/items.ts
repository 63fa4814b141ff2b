import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { BaseUnit, InventoryMoney, ItemStatus, PositiveQuantity } from './common';

/**
 * Items and their reference data: categories, units of measure (conversions to an item's base unit)
 * and storage areas (where a location keeps which items, in counting order). Items, categories and
 * units are company-wide; storage areas belong to a location.
 */
const text = (max: number) => z.string().trim().min(1).max(max);
const RecordId = z.string().trim().min(1).max(64);

/** Lists that name records once each (`barcodes`, `itemIds`): a repeat is reported at its index. */
const distinct = <T extends z.ZodType<string>>(element: T, max: number) =>
  z
    .array(element)
    .max(max)
    .superRefine((values, ctx) => {
      const seen = new Set<string>();
      values.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: 'custom', path: [i], message: 'Listed twice.' });
        seen.add(v);
      });
    });

/** Unique among active items (exact, as POS lines match it). */
export const ItemSku = text(100).openapi({ example: 'LATTE-12OZ' });
/** EAN/UPC/GTIN or any printable code without spaces; each on at most one active item. */
export const ItemBarcode = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\x21-\x7e]+$/, 'Must be printable characters without spaces, such as 4006381333931.')
  .openapi({ example: '4006381333931' });
/** The POS or store catalog's id; unique company-wide (`/items/external/{externalId}` names one item). */
export const ItemExternalId = text(200).openapi({ example: 'POS-ITEM-1001' });

const itemEditable = {
  sku: ItemSku.nullable().optional(),
  barcodes: distinct(ItemBarcode, 50).optional(),
  name: text(300).openapi({ example: 'Oat milk 1 l' }),
  categoryId: RecordId.nullable().optional(),
  /** each (counted pieces), g or ml; cannot change once the item has stock movements */
  baseUnit: BaseUnit,
  /** standard cost per base unit, used by the ledger before any costed receipt */
  cost: InventoryMoney.nullable().optional(),
};

/** Body of `POST /items`; a new item is active. */
export const ItemCreate = z.strictObject({ externalId: ItemExternalId.nullable().optional(), ...itemEditable }).openapi('ItemCreate');
export type ItemCreate = z.output<typeof ItemCreate>;

/**
 * Body of `PUT /items/external/{externalId}`: the whole item (absent optional fields are cleared), the
 * externalId from the path. `status` absent keeps the stored one, so a catalog sync never revives an archived item.
 */
export const ItemReplace = z.strictObject({ ...itemEditable, status: ItemStatus.optional() }).openapi('ItemReplace');
export type ItemReplace = z.output<typeof ItemReplace>;

/** Body of `PATCH /items/{id}`: only the fields sent change; null clears an optional field. */
export const ItemPatch = z
  .strictObject({
    externalId: ItemExternalId.nullable().optional(),
    ...itemEditable,
    name: itemEditable.name.optional(),
    baseUnit: BaseUnit.optional(),
    status: ItemStatus.optional(),
  })
  .openapi('ItemPatch');
export type ItemPatch = z.output<typeof ItemPatch>;

/** A unit of measure that applies to an item: `factor` base units per one of it. */
export const ItemUnit = z
  .object({
    id: z.string().openapi({ example: 'uom_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string().openapi({ example: 'case of 12' }),
    factor: z.string().openapi({ example: '12' }),
    /** the item for an item's own unit; null for a company-wide one */
    itemId: z.string().nullable(),
  })
  .openapi('ItemUnit');
export type ItemUnit = z.output<typeof ItemUnit>;

/** An item; also `data.object` of `item.created` / `item.updated` (a superset of sales' `ItemEventObject`). */
export const Item = z
  .object({
    id: z.string().openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    sku: z.string().nullable(),
    barcodes: z.array(z.string()),
    name: z.string(),
    categoryId: z.string().nullable(),
    baseUnit: BaseUnit,
    cost: z.string().nullable(),
    /** its own units and the company-wide ones of its base unit, smallest first */
    units: z.array(ItemUnit),
    status: ItemStatus,
    archivedAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Item');
export type Item = z.output<typeof Item>;

export const ItemListQuery = ListQuery.extend({
  status: ItemStatus.optional(),
  categoryId: RecordId.optional(),
  /** exact */
  sku: z.string().min(1).max(100).optional(),
  /** items carrying this barcode */
  barcode: z.string().min(1).max(100).optional(),
  externalId: z.string().min(1).max(200).optional(),
  updatedSince: Timestamp.optional(),
});

export const ItemCategoryStatus = z.enum(['active', 'archived']);

/** Body of `POST /item-categories`; the name is unique among active categories (case-insensitive). */
export const ItemCategoryCreate = z
  .strictObject({
    name: text(200).openapi({ example: 'Dairy' }),
    /** an active category to nest under */
    parentId: RecordId.nullable().optional(),
  })
  .openapi('ItemCategoryCreate');
export type ItemCategoryCreate = z.output<typeof ItemCategoryCreate>;

/** Body of `PATCH /item-categories/{id}`: a move (`parentId`) may not make a cycle; archiving needs no active subcategory. */
export const ItemCategoryPatch = z
  .strictObject({
    name: text(200).optional(),
    parentId: RecordId.nullable().optional(),
    status: ItemCategoryStatus.optional(),
  })
  .openapi('ItemCategoryPatch');
export type ItemCategoryPatch = z.output<typeof ItemCategoryPatch>;

export const ItemCategory = z
  .object({
    id: z.string().openapi({ example: 'ica_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    parentId: z.string().nullable(),
    status: ItemCategoryStatus,
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ItemCategory');
export type ItemCategory = z.output<typeof ItemCategory>;

export const ItemCategoryListQuery = ListQuery.extend({
  status: ItemCategoryStatus.optional(),
  parentId: RecordId.optional(),
  updatedSince: Timestamp.optional(),
});

/**
 * Body of `POST /units-of-measure`: one of this unit is `factor` base units (`kg` = 1000 g). With
 * `itemId` it applies to that item only and must measure the item's base unit; without it to every
 * item of `baseUnit`. Names are unique among company-wide units and within an item's units.
 */
export const UnitOfMeasureCreate = z
  .strictObject({
    name: text(100).openapi({ example: 'case of 12' }),
    baseUnit: BaseUnit,
    factor: PositiveQuantity.openapi({ example: '12' }),
    itemId: RecordId.nullable().optional(),
  })
  .openapi('UnitOfMeasureCreate');
export type UnitOfMeasureCreate = z.output<typeof UnitOfMeasureCreate>;

export const UnitOfMeasure = z
  .object({
    id: z.string().openapi({ example: 'uom_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    baseUnit: BaseUnit,
    /** base units per one of this unit */
    factor: z.string().openapi({ example: '12' }),
    /** null: company-wide */
    itemId: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('UnitOfMeasure');
export type UnitOfMeasure = z.output<typeof UnitOfMeasure>;

export const UnitOfMeasureListQuery = ListQuery.extend({
  /** the units that apply to this item: its own and the company-wide ones of its base unit */
  itemId: RecordId.optional(),
  baseUnit: BaseUnit.optional(),
});

export const StorageAreaStatus = z.enum(['active', 'archived']);
const CountingOrder = z.number().int().min(0).max(1_000_000);
/** The items kept in an area (each an item; newly listed ones active), in shelf order. */
const StorageItemIds = distinct(RecordId, 2000);

/** Body of `POST /storage-areas`: the name is unique among the location's active areas (case-insensitive). */
export const StorageAreaCreate = z
  .strictObject({
    locationId: RecordId,
    name: text(100).openapi({ example: 'Walk-in cooler' }),
    /** position in a count walk (lower first); default: after the location's last area */
    countingOrder: CountingOrder.optional(),
    itemIds: StorageItemIds.optional(),
  })
  .openapi('StorageAreaCreate');
export type StorageAreaCreate = z.output<typeof StorageAreaCreate>;

export const StorageAreaPatch = z
  .strictObject({
    name: text(100).optional(),
    countingOrder: CountingOrder.optional(),
    itemIds: StorageItemIds.optional(),
    status: StorageAreaStatus.optional(),
  })
  .openapi('StorageAreaPatch');
export type StorageAreaPatch = z.output<typeof StorageAreaPatch>;

export const StorageArea = z
  .object({
    id: z.string().openapi({ example: 'sta_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    locationId: z.string(),
    name: z.string(),
    countingOrder: z.number().int(),
    itemIds: z.array(z.string()),
    status: StorageAreaStatus,
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('StorageArea');
export type StorageArea = z.output<typeof StorageArea>;

export const StorageAreaListQuery = ListQuery.extend({
  locationId: RecordId.optional(),
  status: StorageAreaStatus.optional(),
  updatedSince: Timestamp.optional(),
});

/**
 * Items (GET/POST /items, GET/PUT /items/external/{externalId}, GET/PATCH/DELETE /items/{id}),
 * categories, units of measure and storage areas.
 */
export const inventoryItemsOperations = {
  'GET /items': { query: ItemListQuery, response: listEnvelope(Item) },
  'POST /items': { body: ItemCreate, response: Item, status: 201 },
  'GET /items/external/{externalId}': { params: ExternalIdParam, response: Item },
  // 201 when the externalId is new, 200 otherwise
  'PUT /items/external/{externalId}': { params: ExternalIdParam, body: ItemReplace, response: Item, alsoStatuses: [201] },
  'GET /items/{id}': { params: IdParam, response: Item },
  'PATCH /items/{id}': { params: IdParam, body: ItemPatch, response: Item },
  // archive (idempotent): the item, status archived
  'DELETE /items/{id}': { params: IdParam, response: Item },
  'GET /item-categories': { query: ItemCategoryListQuery, response: listEnvelope(ItemCategory) },
  'POST /item-categories': { body: ItemCategoryCreate, response: ItemCategory, status: 201 },
  'PATCH /item-categories/{id}': { params: IdParam, body: ItemCategoryPatch, response: ItemCategory },
  'GET /units-of-measure': { query: UnitOfMeasureListQuery, response: listEnvelope(UnitOfMeasure) },
  'POST /units-of-measure': { body: UnitOfMeasureCreate, response: UnitOfMeasure, status: 201 },
  'GET /storage-areas': { query: StorageAreaListQuery, response: listEnvelope(StorageArea) },
  'POST /storage-areas': { body: StorageAreaCreate, response: StorageArea, status: 201 },
  'PATCH /storage-areas/{id}': { params: IdParam, body: StorageAreaPatch, response: StorageArea },
};
