import { BadRequest, reachableLocationIds, route, type RouteDef } from '@bop/shared';
import { loadFeatureStates } from '../features/store';
import { listLoggedEvents } from './store';
import { readableTypes, typesOfFilter, type Reader } from './readable-types';

export const eventLogRoutes = (): RouteDef[] => [
  // an integration reads what its scopes cover (as its webhooks); a person needs webhooks.manage and
  // sees the events of the locations in reach and those of no location
  route('GET /events', async (ctx) => {
    const locationIds = reachableLocationIds(ctx.reach());
    const { type, from, to } = ctx.query;
    const reader: Reader = { scopes: ctx.principal.kind === 'integration' ? (ctx.principal.scopes ?? []) : null, features: await loadFeatureStates(ctx) };
    let types = readableTypes(reader);
    if (type !== undefined) {
      const named = typesOfFilter(type, reader);
      if (named.errors.length > 0) throw new BadRequest('The type filter is not valid.', named.errors);
      types = types.filter((t) => named.types.includes(t));
    }
    if (from && to && Date.parse(from) > Date.parse(to)) throw new BadRequest('The period is not valid.', [{ path: 'to', message: 'Must not be before from.' }]);
    return { body: await listLoggedEvents(ctx, ctx.query, types, locationIds) };
  }),
];
