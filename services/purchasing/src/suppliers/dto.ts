import type { Catalog, CatalogLine, Supplier, SupplierStatus } from '@bop/contracts';
import type { PurchasingCatalog, PurchasingSupplier, StoredCatalogLine } from './entities';

/** The supplier as the API returns it. */
export function supplierDto(s: PurchasingSupplier): Supplier {
  return {
    id: s.id,
    externalId: s.externalId ?? null,
    name: s.name,
    accountNumber: s.accountNumber ?? null,
    email: s.email ?? null,
    phone: s.phone ?? null,
    locationIds: s.locationIds,
    defaultLeadTimeDays: s.defaultLeadTimeDays ?? null,
    note: s.note ?? null,
    status: s.status as SupplierStatus,
    archivedAt: s.archivedAt ? s.archivedAt.toISOString() : null,
    version: s.version,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** A stored line with the supplier's default lead time applied where the line names none. */
export const catalogLineDto = (l: StoredCatalogLine, defaultLeadTimeDays: number | null): CatalogLine => ({ ...l, leadTimeDays: l.leadTimeDays ?? defaultLeadTimeDays });

/** The catalog as the API returns it (an empty one, version 0, before the first PUT). */
export function catalogDto(supplier: PurchasingSupplier, catalog: PurchasingCatalog | null): Catalog {
  return {
    supplierId: supplier.id,
    lines: (catalog?.lines ?? []).map((l) => catalogLineDto(l, supplier.defaultLeadTimeDays ?? null)),
    version: catalog?.version ?? 0,
    updatedAt: catalog ? catalog.updatedAt.toISOString() : null,
  };
}
