import type { BaseUnit, ItemCreate, ItemPatch, ItemReplace } from '@bop/contracts';
import { canonicalJson } from '@bop/shared';
import { formatNullable } from '../ledger/quantity';

export type ItemStatus = 'active' | 'archived';

/** What an item's writer controls, in canonical form (absent optionals as null, cost without trailing zeros). */
export interface ItemFields {
  externalId: string | null;
  sku: string | null;
  barcodes: string[];
  name: string;
  categoryId: string | null;
  baseUnit: BaseUnit;
  cost: string | null;
  status: ItemStatus;
}

/** `POST /items`: a new item is active. */
export function createFields(body: ItemCreate): ItemFields {
  return {
    externalId: body.externalId ?? null,
    sku: body.sku ?? null,
    barcodes: body.barcodes ?? [],
    name: body.name,
    categoryId: body.categoryId ?? null,
    baseUnit: body.baseUnit,
    cost: formatNullable(body.cost),
    status: 'active',
  };
}

/**
 * `PUT /items/external/{externalId}`: the body is the whole item, so an absent optional field is
 * cleared; an absent status keeps the stored one (active for a new item), so a catalog sync never
 * revives an archived item.
 */
export function replaceFields(body: ItemReplace, externalId: string, stored: ItemStatus | null): ItemFields {
  return { ...createFields({ ...body, externalId }), status: body.status ?? stored ?? 'active' };
}

/** `PATCH /items/{id}`: a field sent replaces the stored one (null clears it); a field not sent is kept. */
export function patchFields(current: ItemFields, patch: ItemPatch): ItemFields {
  const pick = <K extends keyof ItemFields>(key: K, value: ItemFields[K] | undefined): ItemFields[K] => (value === undefined ? current[key] : value);
  return {
    externalId: pick('externalId', patch.externalId),
    sku: pick('sku', patch.sku),
    barcodes: pick('barcodes', patch.barcodes),
    name: pick('name', patch.name),
    categoryId: pick('categoryId', patch.categoryId),
    baseUnit: pick('baseUnit', patch.baseUnit),
    cost: patch.cost === undefined ? current.cost : formatNullable(patch.cost),
    status: pick('status', patch.status),
  };
}

/** Whether two canonical forms differ (an identical re-send changes nothing: no version, no event). */
export function fieldsDiffer(a: ItemFields, b: ItemFields): boolean {
  return canonicalJson(a) !== canonicalJson(b);
}

/**
 * The identifiers `next` claims that `stored` did not hold: an externalId is unique among all items,
 * a SKU and barcodes among active ones, so reviving an archived item claims its SKU and barcodes again.
 */
export function claimedIdentifiers(next: ItemFields, stored: ItemFields | null): { externalId: string | null; sku: string | null; barcodes: Array<{ index: number; barcode: string }> } {
  const heldActive = stored !== null && stored.status === 'active';
  const active = next.status === 'active';
  return {
    externalId: next.externalId !== null && next.externalId !== stored?.externalId ? next.externalId : null,
    sku: active && next.sku !== null && !(heldActive && stored.sku === next.sku) ? next.sku : null,
    barcodes: active ? next.barcodes.map((barcode, index) => ({ index, barcode })).filter((b) => !(heldActive && stored.barcodes.includes(b.barcode))) : [],
  };
}
