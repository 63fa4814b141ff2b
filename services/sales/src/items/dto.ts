import type { SalesUnmappedItem as SalesUnmappedItemDto } from '@bop/contracts';
import type { SalesUnmappedItem } from './entities';

/** An unmapped_items row (snake_case, as `returning *` answers it) as the entity's fields. */
export function entryFromRow(r: Record<string, any>): SalesUnmappedItem {
  return {
    id: r.id,
    source: r.source,
    refField: r.ref_field,
    refValue: r.ref_value,
    itemExternalId: r.item_external_id ?? null,
    itemSku: r.item_sku ?? null,
    itemBarcode: r.item_barcode ?? null,
    sampleNames: r.sample_names ?? [],
    transactionCount: Number(r.transaction_count),
    firstSeenAt: new Date(r.first_seen_at),
    lastSeenAt: new Date(r.last_seen_at),
    locationIds: r.location_ids ?? [],
    status: r.status,
    itemId: r.item_id ?? null,
    mappedAt: r.mapped_at ? new Date(r.mapped_at) : null,
    mappedBy: r.mapped_by ?? null,
    version: Number(r.version),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  } as SalesUnmappedItem;
}

/**
 * The API form of a queue entry. `reachable`: the caller's location ids (null = all), so an entry seen
 * at several locations shows only those the caller may see.
 */
export function unmappedItemDto(e: SalesUnmappedItem, opts: { reachable?: string[] | null; suggestedItemId?: string | null } = {}): SalesUnmappedItemDto {
  const reachable = opts.reachable ?? null;
  return {
    id: e.id,
    source: e.source,
    refField: e.refField as SalesUnmappedItemDto['refField'],
    refValue: e.refValue,
    itemExternalId: e.itemExternalId ?? null,
    itemSku: e.itemSku ?? null,
    itemBarcode: e.itemBarcode ?? null,
    sampleNames: e.sampleNames,
    transactionCount: e.transactionCount,
    firstSeenAt: e.firstSeenAt.toISOString(),
    lastSeenAt: e.lastSeenAt.toISOString(),
    locationIds: reachable ? e.locationIds.filter((id) => reachable.includes(id)) : e.locationIds,
    status: e.status as SalesUnmappedItemDto['status'],
    itemId: e.itemId ?? null,
    suggestedItemId: e.status === 'open' ? (opts.suggestedItemId ?? null) : null,
    mappedAt: e.mappedAt ? e.mappedAt.toISOString() : null,
    mappedBy: e.mappedBy ?? null,
    version: e.version,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
