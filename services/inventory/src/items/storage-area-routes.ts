import { BadRequest, assertLocationInReach, decodeCursor, encodeCursor, mapPage, pageLimit, reachableLocationIds, route, type RouteDef } from '@bop/shared';
import { storageAreaDto } from './dto';
import { changedStorageAreas, createStorageArea, listStorageAreas, storageAreaConflictFor, updateStorageArea } from './storage-area-store';

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
    const { limit, cursor, updatedSince, locationId, status } = ctx.query;
    const reach = ctx.reach();
    if (locationId) assertLocationInReach(reach, locationId);
    const reachable = reachableLocationIds(reach);
    // with updatedSince: the kit's change order (commit-safe); without, counting order
    if (updatedSince) return { body: mapPage(await changedStorageAreas(ctx, { locationId, reachable, status }, { limit, cursor, updatedSince }), storageAreaDto) };
    const after = decodeAreaCursor(cursor);
    const n = pageLimit(limit);
    const rows = await listStorageAreas(ctx, { locationId, reachable, status, after, limit: n });
    const hasMore = rows.length > n;
    const page = hasMore ? rows.slice(0, n) : rows;
    const last = page[page.length - 1];
    return { body: { data: page.map(storageAreaDto), nextCursor: hasMore ? encodeCursor(JSON.stringify([last.locationId, last.countingOrder, last.id])) : null, hasMore } };
  }),

  route(
    'POST /storage-areas',
    async (ctx) => {
      assertLocationInReach(ctx.reach(), ctx.body.locationId);
      const row = await createStorageArea(ctx, ctx.body);
      return { status: 201, body: storageAreaDto(row) };
    },
    { conflict: storageAreaConflictFor },
  ),

  // the area's location decides the reach (checked in the store once the area is read)
  route('PATCH /storage-areas/{id}', async (ctx) => ({ body: storageAreaDto(await updateStorageArea(ctx, ctx.params.id, ctx.body)) }), { conflict: storageAreaConflictFor }),
];
