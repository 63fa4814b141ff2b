import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { PackQuantity, PackSize, RecordRef, SupplierItemCode, UnitPrice, text } from './common';

/**
 * Suppliers (company-wide; `locationIds` names the locations a supplier delivers to, empty: all) and
 * their catalogs (order guides): what can be ordered from them, in which pack, at which price.
 */
export const SupplierStatus = z.enum(['active', 'archived']);
export type SupplierStatus = z.output<typeof SupplierStatus>;

const LeadTimeDays = z.number().int().min(0).max(365);

const supplierEditable = {
  name: text(300).openapi({ example: 'Sysco Metro NY' }),
  /** our customer number at the supplier */
  accountNumber: text(100).nullable().optional(),
  email: z.email().max(320).nullable().optional(),
  phone: text(50).nullable().optional(),
  /** the locations it delivers to (each once); empty or absent: every location */
  locationIds: z.array(RecordRef).max(2000).optional(),
  /** days from sending an order to its delivery, when a catalog line names none */
  defaultLeadTimeDays: LeadTimeDays.nullable().optional(),
  note: text(2000).nullable().optional(),
};

/** Body of `POST /suppliers`; names are unique among active suppliers (case-insensitive). */
export const SupplierCreate = z.strictObject({ externalId: text(200).nullable().optional(), ...supplierEditable }).openapi('SupplierCreate');
export type SupplierCreate = z.output<typeof SupplierCreate>;

/** Body of `PUT /suppliers/external/{externalId}`: the whole supplier (absent optional fields are cleared); `status` absent keeps the stored one. */
export const SupplierReplace = z.strictObject({ ...supplierEditable, status: SupplierStatus.optional() }).openapi('SupplierReplace');
export type SupplierReplace = z.output<typeof SupplierReplace>;

/** Body of `PATCH /suppliers/{id}`: only the fields sent change; null clears an optional field. */
export const SupplierPatch = z
  .strictObject({ externalId: text(200).nullable().optional(), ...supplierEditable, name: supplierEditable.name.optional(), status: SupplierStatus.optional() })
  .openapi('SupplierPatch');
export type SupplierPatch = z.output<typeof SupplierPatch>;

export const Supplier = z
  .object({
    id: z.string().openapi({ example: 'sup_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    name: z.string(),
    accountNumber: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    locationIds: z.array(z.string()),
    defaultLeadTimeDays: z.number().int().nullable(),
    note: z.string().nullable(),
    status: SupplierStatus,
    archivedAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Supplier');
export type Supplier = z.output<typeof Supplier>;

export const SupplierListQuery = ListQuery.extend({
  status: SupplierStatus.optional(),
  /** suppliers delivering to this location */
  locationId: RecordRef.optional(),
  externalId: z.string().min(1).max(200).optional(),
  updatedSince: Timestamp.optional(),
});

/** One line of a supplier's catalog as sent: each supplier code and each item once. */
export const CatalogLineInput = z.strictObject({
  supplierItemCode: SupplierItemCode,
  /** our inventory item */
  itemId: RecordRef.openapi({ example: 'itm_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
  description: text(300).nullable().optional(),
  /** one pack is `packSize` of `unitId` (one of the item's units of measure; null or absent: its base unit) */
  packSize: PackSize,
  unitId: RecordRef.nullable().optional(),
  /** price per pack */
  price: UnitPrice,
  /** fewest packs per order (default 1) */
  minimumOrderQuantity: PackQuantity.optional(),
  /** days from sending to delivery (absent: the supplier's default) */
  leadTimeDays: LeadTimeDays.nullable().optional(),
});

/** Body of `PUT /suppliers/{id}/catalog`: the whole catalog (an empty list clears it). */
export const CatalogReplace = z
  .strictObject({ lines: z.array(CatalogLineInput).max(2000, { error: 'At most 2000 lines per catalog.' }) })
  .openapi('CatalogReplace');
export type CatalogReplace = z.output<typeof CatalogReplace>;

export const CatalogLine = z
  .object({
    supplierItemCode: z.string(),
    itemId: z.string(),
    itemName: z.string(),
    description: z.string().nullable(),
    packSize: z.string(),
    unitId: z.string().nullable(),
    /** the item's base unit */
    baseUnit: z.enum(['each', 'g', 'ml']),
    /** base units in one pack (packSize × the unit's factor) */
    baseQuantityPerPack: z.string(),
    price: z.string(),
    /** price per base unit (six decimals) */
    baseUnitPrice: z.string(),
    minimumOrderQuantity: z.string(),
    /** the line's own, else the supplier's default, else null */
    leadTimeDays: z.number().int().nullable(),
  })
  .openapi('CatalogLine');
export type CatalogLine = z.output<typeof CatalogLine>;

export const Catalog = z
  .object({
    supplierId: z.string(),
    lines: z.array(CatalogLine),
    version: z.number().int(),
    updatedAt: z.string().nullable(),
  })
  .openapi('SupplierCatalog');
export type Catalog = z.output<typeof Catalog>;

export const purchasingSuppliersOperations = {
  'GET /suppliers': { query: SupplierListQuery, response: listEnvelope(Supplier) },
  'POST /suppliers': { body: SupplierCreate, response: Supplier, status: 201 },
  'GET /suppliers/external/{externalId}': { params: ExternalIdParam, response: Supplier },
  // 201 when the externalId is new, 200 when replaced
  'PUT /suppliers/external/{externalId}': { params: ExternalIdParam, body: SupplierReplace, response: Supplier, alsoStatuses: [201] },
  'GET /suppliers/{id}': { params: IdParam, response: Supplier },
  'PATCH /suppliers/{id}': { params: IdParam, body: SupplierPatch, response: Supplier },
  'DELETE /suppliers/{id}': { params: IdParam, response: Supplier },
  'GET /suppliers/{id}/catalog': { params: IdParam, response: Catalog },
  'PUT /suppliers/{id}/catalog': { params: IdParam, body: CatalogReplace, response: Catalog },
};
