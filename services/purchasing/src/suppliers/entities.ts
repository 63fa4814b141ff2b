import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { CatalogLine } from '@bop/contracts';

/** A supplier (company-wide). */
export const PurchasingSupplier = defineEntity({
  name: 'PurchasingSupplier',
  tableName: 'suppliers',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    name: p.string(),
    accountNumber: p.string().nullable(),
    email: p.string().nullable(),
    phone: p.string().nullable(),
    locationIds: p.json<string[]>(),
    defaultLeadTimeDays: p.integer().nullable(),
    note: p.string().nullable(),
    status: p.string(),
    archivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    actor: p.json<{ type: string; id: string | null }>(),
  },
});
export type PurchasingSupplier = InferEntity<typeof PurchasingSupplier>;

/** A supplier's catalog (order guide), replaced as a whole; lines keep the conversion to base units made when written. */
export const PurchasingCatalog = defineEntity({
  name: 'PurchasingCatalog',
  tableName: 'catalogs',
  properties: {
    supplierId: p.string().primary(),
    lines: p.json<StoredCatalogLine[]>(),
    version: p.integer(),
    updatedAt: p.datetime(),
  },
});
export type PurchasingCatalog = InferEntity<typeof PurchasingCatalog>;

/** A catalog line as stored: the answer's line without the supplier default applied to the lead time. */
export type StoredCatalogLine = Omit<CatalogLine, 'leadTimeDays'> & { leadTimeDays: number | null };

export const suppliersEntities = [PurchasingSupplier, PurchasingCatalog] as const;
