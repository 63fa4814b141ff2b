import {
  BadRequest,
  Conflict,
  NotFound,
  ValidationError,
  assertLocationInReach,
  decodeCursor,
  encodeCursor,
  newId,
  pageLimit,
  reachableLocationIds,
  route,
  sqlQuery,
  writeTransaction,
  type ApiError,
  type EntityManager,
  type FieldError,
  type RouteDef,
} from '@bop/shared';
import { storageAreaDto, type StorageAreaRow } from './dto';
import { isFieldError, writableLocation } from '../stock/location';

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
      await sqlQuery<{ id: string; status: string }>(em, `select "id", "status" from "inventory"."items" where "id" = any(array(select jsonb_array_elements_text(?::jsonb)))`, [
        JSON.stringify(itemIds),
      ])
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

/** Lists run in counting order (location, countingOrder, then creation): the cursor carries that key. */
function decodeAreaCursor(cursor: string | undefined): [string, number, string] | null {
  const raw = decodeCursor(cursor);
  if (raw === null) return null;
  try {
    const key = JSON.parse(raw) as unknown;
    if (Array.isArray(key) && key.length === 3 && typeof key[0] === 'string' && Number.isInteger(key[1]) && typeof key[2] === 'string') return key as [string, number, string];
  } catch {
    // fall through
  }
  throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
}

/** storage areas (supplement: GET/POST /storage-areas, PATCH /storage-areas/{id}); each belongs to a location, so reach is the location's */
export const storageAreaRoutes = (): RouteDef[] => [
  route('GET /storage-areas', async (ctx) => {
    const { limit, cursor, locationId, status } = ctx.query;
    const reach = ctx.reach();
    if (locationId) assertLocationInReach(reach, locationId);
    const reachable = reachableLocationIds(reach);
    const after = decodeAreaCursor(cursor);
    const n = pageLimit(limit);
    const rows = await sqlQuery<StorageAreaRow>(
      ctx.em,
      `select * from "inventory"."storage_areas"
       where (?::text is null or "location_id" = ?)
         and (?::jsonb is null or "location_id" = any(array(select jsonb_array_elements_text(?::jsonb))))
         and (?::text is null or "status" = ?)
         and (?::text is null or ("location_id", "counting_order", "id") > (?, ?::int, ?))
       order by "location_id", "counting_order", "id" limit ?`,
      [
        locationId ?? null, locationId ?? null,
        reachable === null ? null : JSON.stringify(reachable), reachable === null ? null : JSON.stringify(reachable),
        status ?? null, status ?? null,
        after?.[0] ?? null, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null,
        n + 1,
      ],
    );
    const hasMore = rows.length > n;
    const page = hasMore ? rows.slice(0, n) : rows;
    const last = page[page.length - 1];
    return { body: { data: page.map(storageAreaDto), nextCursor: hasMore ? encodeCursor(JSON.stringify([last.location_id, last.counting_order, last.id])) : null, hasMore } };
  }),

  route('POST /storage-areas', async (ctx) => {
    const { locationId, name } = ctx.body;
    const itemIds = ctx.body.itemIds ?? [];
    assertLocationInReach(ctx.reach(), locationId);
    const now = new Date();
    const row = await writeTransaction(
      ctx.em,
      async (tem) => {
        // a location's areas are written one at a time: the name check and the default position read them
        await sqlQuery(tem, `select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`inventory.storage_areas ${locationId}`]);
        const location = await writableLocation(tem, locationId);
        if (isFieldError(location)) throw new ValidationError([location]);
        await assertNameFree(tem, locationId, name, null);
        await assertItems(tem, itemIds, []);
        const [created] = await sqlQuery<StorageAreaRow>(
          tem,
          `insert into "inventory"."storage_areas" ("id", "location_id", "name", "counting_order", "item_ids", "status", "version", "created_at", "updated_at")
           values (?, ?, ?, coalesce(?::int, (select coalesce(max("counting_order") + 1, 0) from "inventory"."storage_areas" where "location_id" = ? and "status" = 'active')), ?::jsonb, 'active', 1, ?, ?)
           returning *`,
          [newId('storageArea'), locationId, name, ctx.body.countingOrder ?? null, locationId, JSON.stringify(itemIds), now, now],
        );
        return created;
      },
      conflictFor,
    );
    return { status: 201, body: storageAreaDto(row) };
  }),

  route('PATCH /storage-areas/{id}', async (ctx) => {
    const reach = ctx.reach();
    const now = new Date();
    const row = await writeTransaction(
      ctx.em,
      async (tem) => {
        const [found] = await sqlQuery<StorageAreaRow>(tem, `select * from "inventory"."storage_areas" where "id" = ? for update`, [ctx.params.id]);
        if (!found) throw new NotFound('storage area', ctx.params.id);
        assertLocationInReach(reach, found.location_id);
        ctx.checkVersion(found.version);
        const next = {
          name: ctx.body.name ?? found.name,
          countingOrder: ctx.body.countingOrder ?? found.counting_order,
          itemIds: ctx.body.itemIds ?? found.item_ids,
          status: ctx.body.status ?? found.status,
        };
        const same =
          next.name === found.name && next.countingOrder === found.counting_order && JSON.stringify(next.itemIds) === JSON.stringify(found.item_ids) && next.status === found.status;
        if (same) return found;
        if (next.status === 'active' && (found.status === 'archived' || next.name.toLowerCase() !== found.name.toLowerCase())) await assertNameFree(tem, found.location_id, next.name, found.id);
        if (ctx.body.itemIds) await assertItems(tem, next.itemIds, found.item_ids);
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
    return { body: storageAreaDto(row) };
  }),
];
