import { LocationsResolveRequest, type LocationsResolveAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { resolveLocations } from './store';

/**
 * Organization's internal read for the other services' replicas (the kit's read-through): the current
 * state of locations by id and/or externalId, and of those in org units or the units below them
 * (archived units still hold theirs), in one call for a whole batch. System principal only. A read
 * sent as POST (a body of ids): it writes nothing, so it holds no transaction.
 */
export const internalRoutes = (): InternalRouteDef[] => [
  internalRoute(
    'POST /internal/locations:resolve',
    { body: LocationsResolveRequest },
    async (ctx) => {
      const rows = await resolveLocations(ctx, ctx.body);
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
    },
    { transaction: false },
  ),
];
