import { LocationsResolveRequest, type LocationsResolveAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { Location } from '../entities';
import { subtreeOf } from '../domain/org-tree';
import { loadParents } from '../tree-store';

/**
 * Organization's internal read for the other services' replicas (the kit's read-through): the current
 * state of locations by id and/or externalId, and of those in org units or the units below them
 * (archived units still hold theirs), in one call for a whole batch. System principal only.
 */
export const internalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/locations:resolve', { body: LocationsResolveRequest }, async (ctx) => {
    const ids = [...new Set(ctx.body.ids ?? [])];
    const externalIds = [...new Set(ctx.body.externalIds ?? [])];
    const units = ctx.body.orgUnitIds?.length ? [...subtreeOf(await loadParents(ctx.em), ctx.body.orgUnitIds)] : [];
    const where = [
      ...(ids.length > 0 ? [{ id: { $in: ids } }] : []),
      ...(externalIds.length > 0 ? [{ externalId: { $in: externalIds } }] : []),
      ...(units.length > 0 ? [{ orgUnitId: { $in: units } }] : []),
    ];
    const rows = where.length > 0 ? await ctx.em.find(Location, { $or: where }, { orderBy: { id: 'asc' } }) : [];
    const answer: LocationsResolveAnswer = {
      data: rows.map((l) => ({
        id: l.id,
        externalId: l.externalId ?? null,
        timezone: l.timezone,
        businessDayCutoff: l.businessDayCutoff,
        status: l.status,
        orgUnitId: l.orgUnitId ?? null,
        updatedAt: l.updatedAt.toISOString(),
      })),
    };
    return ok(answer);
  }),
];
