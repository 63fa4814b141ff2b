import { LockMode, type FilterQuery } from '@mikro-orm/core';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import type { Catalog, CatalogReplace, ItemsResolveAnswer, Supplier, SupplierCreate, SupplierListQuery, SupplierPatch, SupplierReplace } from '@bop/contracts';
import { findPlain, mapPage, findPage, Conflict, NotFound, ValidationError, actorOf, callCommand, canonicalJson, changedFields, lockForTransaction, newId, replicaLocationErrors, type ApiError, type FieldError, type ListPage, type Work } from '@bop/shared';
import { fmtQuantity, round6 } from '@bop/shared';
import { catalogDto, supplierDto } from './dto';
import { PurchasingCatalog, PurchasingSupplier, type StoredCatalogLine } from './entities';

/** The fields a supplier write sets (create, replace and patch all end here). */
interface SupplierFields {
  externalId: string | null;
  name: string;
  accountNumber: string | null;
  email: string | null;
  phone: string | null;
  locationIds: string[];
  defaultLeadTimeDays: number | null;
  note: string | null;
  status: 'active' | 'archived';
}

const fieldsOf = (s: PurchasingSupplier): SupplierFields => ({
  externalId: s.externalId ?? null,
  name: s.name,
  accountNumber: s.accountNumber ?? null,
  email: s.email ?? null,
  phone: s.phone ?? null,
  locationIds: s.locationIds,
  defaultLeadTimeDays: s.defaultLeadTimeDays ?? null,
  note: s.note ?? null,
  status: s.status as SupplierFields['status'],
});

export const createFields = (b: SupplierCreate): SupplierFields => ({
  externalId: b.externalId ?? null,
  name: b.name,
  accountNumber: b.accountNumber ?? null,
  email: b.email ?? null,
  phone: b.phone ?? null,
  locationIds: b.locationIds ?? [],
  defaultLeadTimeDays: b.defaultLeadTimeDays ?? null,
  note: b.note ?? null,
  status: 'active',
});

/** PUT: the whole supplier; an absent `status` keeps the stored one (a sync never revives an archived supplier). */
export const replaceFields = (b: SupplierReplace, externalId: string, stored: PurchasingSupplier | null): SupplierFields => ({
  ...createFields({ ...b, externalId }),
  status: b.status ?? (stored?.status as SupplierFields['status'] | undefined) ?? 'active',
});

/** PATCH: only the fields sent change; null clears. */
export function patchFields(s: PurchasingSupplier, b: SupplierPatch): SupplierFields {
  const f = fieldsOf(s);
  const pick = <K extends keyof SupplierFields>(k: K, v: SupplierFields[K] | undefined) => (v === undefined ? f[k] : v);
  return {
    externalId: pick('externalId', b.externalId),
    name: pick('name', b.name),
    accountNumber: pick('accountNumber', b.accountNumber),
    email: pick('email', b.email),
    phone: pick('phone', b.phone),
    locationIds: pick('locationIds', b.locationIds),
    defaultLeadTimeDays: pick('defaultLeadTimeDays', b.defaultLeadTimeDays),
    note: pick('note', b.note),
    status: pick('status', b.status),
  };
}

/** Serialises, within a transaction, the writes that hinge on one externalId (a row that does not exist yet cannot be locked). */
export async function lockExternalId(w: Work, externalId: string): Promise<void> {
  await lockForTransaction(w.em, `${w.schema}.suppliers ${JSON.stringify(externalId)}`);
}

const RACED: Record<string, { path: string; detail: string }> = {
  suppliers_external_id_uq: { path: 'externalId', detail: 'Another supplier already has this externalId.' },
  suppliers_active_name_uq: { path: 'name', detail: 'Another active supplier already has this name.' },
};

/** The 409 of a unique index that fired in a race the checks lost twice. */
export function supplierConflictFor(constraint: string | undefined): ApiError {
  const raced = constraint === undefined ? undefined : RACED[constraint];
  if (!raced) return new Conflict('Another supplier was written at the same time; send the request again.');
  return new Conflict(raced.detail, [{ path: raced.path, message: 'Already used by another supplier.' }]);
}

/**
 * A value ILIKE matches as itself: its wildcards and the escape taken literally. `x ilike likeLiteral(v)`
 * is `lower(x) = lower(v)`, the case-folding of the unique indexes on lower(…): in a multibyte
 * database Postgres compares lower() of both sides.
 */
export const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Another active supplier (not `self`) of this name in any case (the case-folding of the unique index suppliers_active_name_uq, lower(name)). */
export async function activeSupplierNamed(w: Work, name: string, self: string): Promise<PurchasingSupplier | undefined> {
  const [other] = await findPlain(w.em, PurchasingSupplier, { name: { $ilike: likeLiteral(name) }, status: 'active', id: { $ne: self } }, { limit: 1 });
  return other;
}

/** 422 for listed locations that are unknown, archived or listed twice; 409 for a name or externalId another supplier holds. */
async function assertValid(w: Work, next: SupplierFields, stored: PurchasingSupplier | null): Promise<void> {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  next.locationIds.forEach((id, i) => {
    if (seen.has(id)) errors.push({ path: `locationIds[${i}]`, message: 'Listed twice.' });
    seen.add(id);
  });
  const newlyListed = next.locationIds.map((id, i) => ({ id, path: `locationIds[${i}]`, takes: 'suppliers' })).filter((r) => !(stored?.locationIds ?? []).includes(r.id));
  if (newlyListed.length > 0) errors.push(...(await replicaLocationErrors(w, newlyListed)));
  if (errors.length > 0) throw new ValidationError(errors);

  const self = stored?.id ?? '';
  const conflicts: FieldError[] = [];
  const details: string[] = [];
  if (next.externalId !== null && next.externalId !== (stored?.externalId ?? null)) {
    const [other] = await findPlain(w.em, PurchasingSupplier, { externalId: next.externalId, id: { $ne: self } }, { limit: 1 });
    if (other) {
      conflicts.push({ path: 'externalId', message: `Already used by supplier ${other.id}.` });
      details.push(`Supplier ${other.id} already has externalId ${next.externalId}.`);
    }
  }
  if (next.status === 'active') {
    const other = await activeSupplierNamed(w, next.name, self);
    if (other) {
      conflicts.push({ path: 'name', message: `Already used by active supplier ${other.id}.` });
      details.push(`Active supplier ${other.id} is already called ${next.name}.`);
    }
  }
  if (conflicts.length > 0) throw new Conflict(details.join(' '), conflicts);
}

const supplierEvent = (type: 'supplier.created' | 'supplier.updated' | 'supplier.archived', dto: Supplier, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'supplier',
  aggregateId: dto.id,
  // a supplier serves a list of locations (or all): company-wide, as org units
  locationId: null,
  object: dto,
  previous,
});

export async function createSupplier(w: Work, fields: SupplierFields): Promise<Supplier> {
  await assertValid(w, fields, null);
  const supplier = w.em.create(PurchasingSupplier, {
    id: newId('supplier'),
    ...fields,
    archivedAt: fields.status === 'archived' ? w.now : null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
    actor: actorOf(w.actor),
  });
  await w.em.flush();
  const dto = supplierDto(supplier);
  w.emit(supplierEvent('supplier.created', dto));
  return dto;
}

/** Replaces a locked supplier's fields; the same fields → nothing written (no version). `checkVersion` runs only when something changes. */
export async function updateSupplier(w: Work, supplier: PurchasingSupplier, next: SupplierFields): Promise<Supplier> {
  if (JSON.stringify(fieldsOf(supplier)) === JSON.stringify(next)) return supplierDto(supplier);
  w.checkVersion(supplier.version);
  await assertValid(w, next, supplier);
  const archivedAt = next.status !== 'archived' ? null : supplier.status === 'archived' ? (supplier.archivedAt ?? w.now) : w.now;
  const before = supplierDto(supplier);
  Object.assign(supplier, { ...next, archivedAt, version: supplier.version + 1, updatedAt: w.now, actor: actorOf(w.actor) });
  await w.em.flush();
  const after = supplierDto(supplier);
  w.emit(supplierEvent(before.status !== 'archived' && after.status === 'archived' ? 'supplier.archived' : 'supplier.updated', after, changedFields(before, after)));
  return after;
}

/** `GET /suppliers`: oldest first, by cursor. */
export async function listSuppliers(w: Work, q: z.output<typeof SupplierListQuery>): Promise<ListPage<Supplier>> {
  const { limit, cursor, status, locationId, externalId, updatedSince } = q;
  const page = await findPage(
    w.em,
    PurchasingSupplier,
    [
      status && { status },
      externalId && { externalId },
      // delivers there: lists it, or lists no location (all)
      locationId && { $or: [{ locationIds: { $contains: [locationId] } } as FilterQuery<PurchasingSupplier>, { locationIds: { $eq: [] } } as FilterQuery<PurchasingSupplier>] },
    ],
    { limit, cursor, updatedSince },
  );
  return mapPage(page, supplierDto);
}

/** `PUT /suppliers/external/{externalId}`: creates the supplier (201) or replaces its fields (200). */
export async function putSupplierByExternalId(w: Work, externalId: string, body: SupplierReplace): Promise<{ status: number; supplier: Supplier }> {
  // concurrent first PUTs of one externalId queue here: one creates, the others then replace
  await lockExternalId(w, externalId);
  const existing = await findSupplier(w, { externalId }, { lock: true });
  if (!existing) return { status: 201, supplier: await createSupplier(w, replaceFields(body, externalId, null)) };
  return { status: 200, supplier: await updateSupplier(w, existing, replaceFields(body, externalId, existing)) };
}

/** `PATCH /suppliers/{id}`. */
export async function patchSupplier(w: Work, id: string, body: SupplierPatch): Promise<Supplier> {
  const row = await findSupplier(w, { id }, { lock: true });
  if (!row) throw new NotFound('supplier', id);
  // If-Match guards a person's edit even when it turns out to change nothing
  w.checkVersion(row.version);
  return updateSupplier(w, row, patchFields(row, body));
}

/** `DELETE /suppliers/{id}`: archived (history kept; no new orders). */
export async function archiveSupplier(w: Work, id: string): Promise<Supplier> {
  const row = await findSupplier(w, { id }, { lock: true });
  if (!row) throw new NotFound('supplier', id);
  return updateSupplier(w, row, patchFields(row, { status: 'archived' }));
}

/** `PUT /suppliers/{id}/catalog`, the supplier locked: 404 when unknown, 409 when archived. */
export async function replaceCatalogOf(w: Work, id: string, body: CatalogReplace, requestId?: string): Promise<Catalog> {
  const supplier = await findSupplier(w, { id }, { lock: true });
  if (!supplier) throw new NotFound('supplier', id);
  if (supplier.status !== 'active') throw new Conflict(`Supplier ${supplier.id} is archived; its catalog cannot change.`);
  return replaceCatalog(w, supplier, body, requestId);
}

export async function findSupplier(w: Work, by: { id: string } | { externalId: string }, opts: { lock?: boolean } = {}): Promise<PurchasingSupplier | null> {
  return w.em.findOne(PurchasingSupplier, by, opts.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
}

/** A supplier that takes orders at a location: exists, active, delivers there (path: the body field naming it). */
export async function orderableSupplier(w: Work, supplierId: string, locationId: string, path = 'supplierId'): Promise<PurchasingSupplier> {
  const supplier = await findSupplier(w, { id: supplierId });
  if (!supplier) throw new ValidationError([{ path, message: `No supplier ${supplierId}.` }]);
  if (supplier.status !== 'active') throw new ValidationError([{ path, message: `Supplier ${supplierId} is archived; it takes no new orders.` }]);
  if (supplier.locationIds.length > 0 && !supplier.locationIds.includes(locationId)) {
    throw new ValidationError([{ path, message: `Supplier ${supplierId} does not deliver to location ${locationId} (its locationIds).` }]);
  }
  return supplier;
}

export async function catalogOf(w: Work, supplierId: string): Promise<PurchasingCatalog | null> {
  return w.em.findOne(PurchasingCatalog, { supplierId });
}

/**
 * `PUT /suppliers/{id}/catalog`: each supplier code and each item once; the items and units are
 * resolved by inventory (unknown or archived item, a unit that does not apply → 422 at the line), and
 * each pack's base quantity and the price per base unit are kept with the line, so orders placed
 * from it convert as they were priced. The same lines again change nothing (no version).
 */
async function replaceCatalog(w: Work, supplier: PurchasingSupplier, body: CatalogReplace, requestId: string | undefined): Promise<Catalog> {
  const errors: FieldError[] = [];
  const codes = new Map<string, number>();
  const items = new Map<string, number>();
  body.lines.forEach((l, i) => {
    const code = l.supplierItemCode.toLowerCase();
    if (codes.has(code)) errors.push({ path: `lines[${i}].supplierItemCode`, message: `Also on line ${codes.get(code)}.` });
    else codes.set(code, i);
    if (items.has(l.itemId)) errors.push({ path: `lines[${i}].itemId`, message: `Also on line ${items.get(l.itemId)}; a catalog names each item once.` });
    else items.set(l.itemId, i);
  });
  if (errors.length > 0) throw new ValidationError(errors);

  const resolved: ItemsResolveAnswer['lines'] =
    body.lines.length === 0
      ? []
      : (
          await callCommand<ItemsResolveAnswer>(w.services, 'inventory', 'POST', '/internal/items:resolve', { lines: body.lines.map((l) => ({ itemId: l.itemId, unitId: l.unitId ?? null })) }, {
            what: 'resolve the catalog items',
            ok: [200],
            fieldPrefix: '',
            requestId,
          })
        ).lines;
  const lines: StoredCatalogLine[] = body.lines.map((l, i) => {
    const r = resolved[i];
    const perPack = round6(new Decimal(l.packSize).times(r.factor));
    if (perPack.isZero()) errors.push({ path: `lines[${i}].packSize`, message: `Is less than a millionth of the item's base unit (${r.baseUnit}).` });
    return {
      supplierItemCode: l.supplierItemCode,
      itemId: l.itemId,
      itemName: r.name,
      description: l.description ?? null,
      packSize: fmtQuantity(l.packSize),
      unitId: l.unitId ?? null,
      baseUnit: r.baseUnit,
      baseQuantityPerPack: fmtQuantity(perPack),
      price: fmtQuantity(l.price),
      baseUnitPrice: perPack.isZero() ? '0' : fmtQuantity(round6(new Decimal(l.price).div(perPack))),
      minimumOrderQuantity: fmtQuantity(l.minimumOrderQuantity ?? '1'),
      leadTimeDays: l.leadTimeDays ?? null,
    };
  });
  if (errors.length > 0) throw new ValidationError(errors);

  const catalog = await w.em.findOne(PurchasingCatalog, { supplierId: supplier.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  // jsonb hands the stored lines back with its own key order: compare canonically
  if (catalog && canonicalJson(catalog.lines) === canonicalJson(lines)) return catalogDto(supplier, catalog);
  w.checkVersion(catalog?.version ?? 0);
  if (catalog) Object.assign(catalog, { lines, version: catalog.version + 1, updatedAt: w.now });
  else w.em.create(PurchasingCatalog, { supplierId: supplier.id, lines, version: 1, updatedAt: w.now });
  await w.em.flush();
  const dto = catalogDto(supplier, await w.em.findOneOrFail(PurchasingCatalog, { supplierId: supplier.id }));
  w.emit({ type: 'supplier.catalog_replaced', aggregateType: 'supplier', aggregateId: supplier.id, locationId: null, object: dto });
  return dto;
}
