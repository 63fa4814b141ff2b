import {
  assertLocationInReach,
  mapPage,
  reachableLocationIds,
  route,
  ValidationError,
  type FieldError,
  type RouteDef,
  type ServiceRuntime,
} from '@bop/shared';
import type { SalesConfig } from '../config';
import { unmappedItemDto } from './dto';
import { listUnmappedItems, mapUnmappedItems, replicaItemIds } from './store';

export const itemRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  // spec: ingestion rule 3 — the unmapped-items queue; an entry is listed to those reaching any of its locations
  route('GET /sales/unmapped-items', async (ctx) => {
    const { limit, cursor, updatedSince, source, status, locationId } = ctx.query;
    const reachable = reachableLocationIds(ctx.reach());
    if (locationId) assertLocationInReach(ctx.reach(), locationId);
    const page = await listUnmappedItems(ctx, { status, source, locationId, reachable }, { limit, cursor, updatedSince });
    const open = page.data.filter((r) => r.status === 'open');
    const suggested = await replicaItemIds(ctx, open.map((r) => ({ itemExternalId: r.itemExternalId, itemSku: r.itemSku, itemBarcode: r.itemBarcode })));
    const suggestion = new Map(open.map((r, i) => [r.id, suggested[i]]));
    return { body: mapPage(page, (r) => unmappedItemDto(r, { reachable, suggestedItemId: suggestion.get(r.id) ?? null })) };
  }),

  // spec: ingestion rule 3 — links POS items to items (all or nothing) and recalculates their past sales
  route('POST /sales/unmapped-items:map', async (ctx) => {
    const { mappings } = ctx.body;
    const firstAt = new Map<string, number>();
    const repeated: FieldError[] = [];
    mappings.forEach((m, i) => {
      const first = firstAt.get(m.unmappedItemId);
      if (first !== undefined) repeated.push({ path: `mappings[${i}].unmappedItemId`, message: `Already listed at mappings[${first}].` });
      else firstAt.set(m.unmappedItemId, i);
    });
    if (repeated.length > 0) throw new ValidationError(repeated);
    const body = await mapUnmappedItems(ctx, mappings);
    return { status: 200, body };
  }),
];
