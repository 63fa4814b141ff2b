import { LockMode, type FilterQuery } from '@mikro-orm/core';
import {
  Conflict,
  NotFound,
  ValidationError,
  assertLocationInReach,
  changedFields,
  lockForTransaction,
  newId,
  findPage,
  findPlain,
  type ApiError,
  type EntityManager, type Work,
  type FieldError,
  type ListPage,
  type PageRequest,
} from '@bop/shared';
import type { StorageAreaCreate, StorageAreaPatch } from '@bop/contracts';
import { InventoryItem, InventoryStorageArea } from './entities';
import { storageAreaDto } from './dto';
import { isFieldError, writableLocation } from '../stock/location-store';

const nameTaken = (detail: string) => new Conflict(detail, [{ path: 'name', message: "Already used by another of the location's active storage areas." }]);
/** The 409 of a unique index that fired in a race the name check lost twice (the routes' `conflict`). */
export const storageAreaConflictFor = (constraint: string | undefined): ApiError =>
  constraint === 'storage_areas_active_name_uq' ? nameTaken('Another active storage area of this location already has this name.') : new Conflict('Another storage area was written at the same time; send the request again.');

async function assertNameFree(em: EntityManager, locationId: string, name: string, selfId: string | null): Promise<void> {
  const [other] = await em
    .createQueryBuilder(InventoryStorageArea, 'a')
    .select(['id', 'name'])
    .where({ locationId, status: 'active', id: { $ne: selfId ?? '' } })
    // compared as the unique index storage_areas_active_name_uq compares: lower() on both sides, in the database's collation
    .andWhere('lower(a.name) = lower(?)', [name])
    .execute<Array<Pick<InventoryStorageArea, 'id' | 'name'>>>('all', true);
  if (other) throw nameTaken(`Storage area ${other.id} of location ${locationId} is already named ${other.name}.`);
}

/** Every listed id must be an item; one newly listed must be active (an archived item is no longer countable). */
async function assertItems(em: EntityManager, itemIds: string[], kept: string[]): Promise<void> {
  if (itemIds.length === 0) return;
  const found = new Map(
    (
      await findPlain(em, InventoryItem, { id: { $in: itemIds } })
    ).map((r) => [r.id, r.status]),
  );
  const errors: FieldError[] = [];
  itemIds.forEach((id, i) => {
    const status = found.get(id);
    if (status === undefined) errors.push({ path: `itemIds[${i}]`, message: `No item ${id}.` });
    else if (status !== 'active' && !kept.includes(id)) errors.push({ path: `itemIds[${i}]`, message: `Item ${id} is archived.` });
  });
  if (errors.length > 0) throw new ValidationError(errors);
}

export interface StorageAreaFilter {
  locationId?: string;
  /** null: every location */
  reachable: string[] | null;
  status?: string;
  /** the decoded cursor: [locationId, countingOrder, id] of the last row of the previous page */
  after: [string, number, string] | null;
  limit: number;
}

/** Where a new area goes when no position is sent: after the location's active areas. */
async function nextCountingOrder(em: EntityManager, locationId: string): Promise<number> {
  const [last] = await findPlain(em, InventoryStorageArea, { locationId, status: 'active' as const }, { orderBy: { countingOrder: 'desc' }, limit: 1 });
  return last ? last.countingOrder + 1 : 0;
}

/** A page of storage areas in counting order (`limit + 1` rows: the caller tells whether more follow). */
export async function listStorageAreas(w: Work, f: StorageAreaFilter): Promise<InventoryStorageArea[]> {
  const { em } = w;
  const { locationId, reachable, status, after } = f;
  const where: FilterQuery<InventoryStorageArea>[] = [];
  if (locationId) where.push({ locationId });
  if (reachable) where.push({ locationId: { $in: reachable } });
  if (status) where.push({ status: status as InventoryStorageArea['status'] });
  const qb = em.createQueryBuilder(InventoryStorageArea, 'a').select('*').where({ $and: where });
  // a row comparison: the keyset of (location, counting order, id), which the storage_areas_location_idx serves
  if (after) qb.andWhere('(a.location_id, a.counting_order, a.id) > (?, ?, ?)', [...after]);
  return qb.orderBy({ locationId: 'asc', countingOrder: 'asc', id: 'asc' }).limit(f.limit + 1).execute<InventoryStorageArea[]>('all', true);
}

/** A page of storage areas changed since `updatedSince`, in change order (the kit's commit-safe page). */
export async function changedStorageAreas(w: Work, f: Omit<StorageAreaFilter, 'after' | 'limit'>, page: PageRequest & { updatedSince: string }): Promise<ListPage<InventoryStorageArea>> {
  return findPage(w.em, InventoryStorageArea, [f.locationId && { locationId: f.locationId }, f.reachable && { locationId: { $in: f.reachable } }, f.status && { status: f.status as InventoryStorageArea['status'] }], page);
}

/** `POST /storage-areas`: a new active area of a writable location (422 on a missing or archived item, 409 on a name in use). */
export async function createStorageArea(w: Work, body: StorageAreaCreate): Promise<InventoryStorageArea> {
  const { em } = w;
  const { locationId, name } = body;
  const itemIds = body.itemIds ?? [];
  // a location's areas are written one at a time: the name check and the default position read them
  await lockForTransaction(em, `${w.schema}.storage_areas ${locationId}`);
  const location = await writableLocation(w, locationId);
  if (isFieldError(location)) throw new ValidationError([location]);
  await assertNameFree(em, locationId, name, null);
  await assertItems(em, itemIds, []);
  const countingOrder = body.countingOrder ?? (await nextCountingOrder(em, locationId));
  const created = em.create(InventoryStorageArea, {
    id: newId('storageArea'),
    locationId,
    name,
    countingOrder,
    itemIds,
    status: 'active',
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  await em.flush();
  w.emit({ type: 'storage_area.created', aggregateType: 'storage_area', aggregateId: created.id, locationId, object: storageAreaDto(created) });
  return created;
}

/** `PATCH /storage-areas/{id}`: the fields sent replace the stored ones; the same values again change nothing. */
export async function updateStorageArea(w: Work, id: string, patch: StorageAreaPatch): Promise<InventoryStorageArea> {
  const { em } = w;
  const found = await em.findOne(InventoryStorageArea, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!found) throw new NotFound('storage area', id);
  assertLocationInReach(w.reach(), found.locationId);
  w.checkVersion(found.version);
  const next = {
    name: patch.name ?? found.name,
    countingOrder: patch.countingOrder ?? found.countingOrder,
    itemIds: patch.itemIds ?? found.itemIds,
    status: patch.status ?? found.status,
  };
  const same =
    next.name === found.name && next.countingOrder === found.countingOrder && JSON.stringify(next.itemIds) === JSON.stringify(found.itemIds) && next.status === found.status;
  if (same) return found;
  if (next.status === 'active' && (found.status === 'archived' || next.name.toLowerCase() !== found.name.toLowerCase())) await assertNameFree(em, found.locationId, next.name, found.id);
  if (patch.itemIds) await assertItems(em, next.itemIds, found.itemIds);
  const before = storageAreaDto(found);
  em.assign(found, { ...next, version: found.version + 1, updatedAt: w.now });
  await em.flush();
  // the project's own public types, at the area's location: data.object the area as the API returns it
  const after = storageAreaDto(found);
  const type = before.status === 'active' && after.status === 'archived' ? 'storage_area.archived' : 'storage_area.updated';
  w.emit({ type, aggregateType: 'storage_area', aggregateId: found.id, locationId: found.locationId, object: after, previous: changedFields(before, after) });
  return found;
}
