import {
  Conflict,
  NotFound,
  ValidationError,
  assertLocationInReach,
  lockForTransaction,
  newId,
  sqlList,
  sqlQuery,
  writeTransaction,
  type ApiError,
  type EntityManager,
  type FieldError,
  type ReachSet,
} from '@bop/shared';
import type { StorageAreaCreate, StorageAreaPatch } from '@bop/contracts';
import type { StorageAreaRow } from './dto';
import { isFieldError, writableLocation } from '../stock/location-store';

const nameTaken = (detail: string) => new Conflict(detail, [{ path: 'name', message: "Already used by another of the location's active storage areas." }]);
const conflictFor = (constraint: string | undefined): ApiError =>
  constraint === 'storage_areas_active_name_uq' ? nameTaken('Another active storage area of this location already has this name.') : new Conflict('Another storage area was written at the same time; send the request again.');

async function assertNameFree(em: EntityManager, locationId: string, name: string, selfId: string | null): Promise<void> {
  const [other] = await sqlQuery<{ id: string; name: string }>(
    em,
    `select "id", "name" from "inventory"."storage_areas" where "location_id" = ? and lower("name") = lower(?) and "status" = 'active' and "id" <> ?`,
    [locationId, name, selfId ?? ''],
  );
  if (other) throw nameTaken(`Storage area ${other.id} of location ${locationId} is already named ${other.name}.`);
}

/** Every listed id must be an item; one newly listed must be active (an archived item is no longer countable). */
async function assertItems(em: EntityManager, itemIds: string[], kept: string[]): Promise<void> {
  if (itemIds.length === 0) return;
  const found = new Map(
    (
      await sqlQuery<{ id: string; status: string }>(em, `select "id", "status" from "inventory"."items" where "id" = any(?::text[])`, [sqlList(itemIds)])
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

/** A page of storage areas in counting order (`limit + 1` rows: the caller tells whether more follow). */
export async function listStorageAreas(em: EntityManager, f: StorageAreaFilter): Promise<StorageAreaRow[]> {
  const { locationId, reachable, status, after } = f;
  return sqlQuery<StorageAreaRow>(
    em,
    `select * from "inventory"."storage_areas"
     where (?::text is null or "location_id" = ?)
       and (?::text[] is null or "location_id" = any(?::text[]))
       and (?::text is null or "status" = ?)
       and (?::text is null or ("location_id", "counting_order", "id") > (?, ?::int, ?))
     order by "location_id", "counting_order", "id" limit ?`,
    [
      locationId ?? null, locationId ?? null,
      reachable === null ? null : sqlList(reachable), reachable === null ? null : sqlList(reachable),
      status ?? null, status ?? null,
      after?.[0] ?? null, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null,
      f.limit + 1,
    ],
  );
}

/** `POST /storage-areas`: a new active area of a writable location (422 on a missing or archived item, 409 on a name in use). */
export async function createStorageArea(em: EntityManager, body: StorageAreaCreate, now: Date): Promise<StorageAreaRow> {
  const { locationId, name } = body;
  const itemIds = body.itemIds ?? [];
  return writeTransaction(
    em,
    async (tem) => {
      // a location's areas are written one at a time: the name check and the default position read them
      await lockForTransaction(tem, `inventory.storage_areas ${locationId}`);
      const location = await writableLocation(tem, locationId);
      if (isFieldError(location)) throw new ValidationError([location]);
      await assertNameFree(tem, locationId, name, null);
      await assertItems(tem, itemIds, []);
      const [created] = await sqlQuery<StorageAreaRow>(
        tem,
        `insert into "inventory"."storage_areas" ("id", "location_id", "name", "counting_order", "item_ids", "status", "version", "created_at", "updated_at")
         values (?, ?, ?, coalesce(?::int, (select coalesce(max("counting_order") + 1, 0) from "inventory"."storage_areas" where "location_id" = ? and "status" = 'active')), ?::jsonb, 'active', 1, ?, ?)
         returning *`,
        [newId('storageArea'), locationId, name, body.countingOrder ?? null, locationId, JSON.stringify(itemIds), now, now],
      );
      return created;
    },
    conflictFor,
  );
}

/** `PATCH /storage-areas/{id}`: the fields sent replace the stored ones; the same values again change nothing. */
export async function updateStorageArea(
  em: EntityManager,
  id: string,
  patch: StorageAreaPatch,
  reach: ReachSet,
  checkVersion: (current: number) => void,
  now: Date,
): Promise<StorageAreaRow> {
  return writeTransaction(
    em,
    async (tem) => {
      const [found] = await sqlQuery<StorageAreaRow>(tem, `select * from "inventory"."storage_areas" where "id" = ? for update`, [id]);
      if (!found) throw new NotFound('storage area', id);
      assertLocationInReach(reach, found.location_id);
      checkVersion(found.version);
      const next = {
        name: patch.name ?? found.name,
        countingOrder: patch.countingOrder ?? found.counting_order,
        itemIds: patch.itemIds ?? found.item_ids,
        status: patch.status ?? found.status,
      };
      const same =
        next.name === found.name && next.countingOrder === found.counting_order && JSON.stringify(next.itemIds) === JSON.stringify(found.item_ids) && next.status === found.status;
      if (same) return found;
      if (next.status === 'active' && (found.status === 'archived' || next.name.toLowerCase() !== found.name.toLowerCase())) await assertNameFree(tem, found.location_id, next.name, found.id);
      if (patch.itemIds) await assertItems(tem, next.itemIds, found.item_ids);
      const [updated] = await sqlQuery<StorageAreaRow>(
        tem,
        `update "inventory"."storage_areas" set "name" = ?, "counting_order" = ?, "item_ids" = ?::jsonb, "status" = ?, "version" = "version" + 1, "updated_at" = ?
         where "id" = ? returning *`,
        [next.name, next.countingOrder, JSON.stringify(next.itemIds), next.status, now, found.id],
      );
      return updated;
    },
    conflictFor,
  );
}
