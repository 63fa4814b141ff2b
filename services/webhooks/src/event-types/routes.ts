import { eventTypes } from '@bop/contracts';
import { decodeCursor, encodeCursor, pageLimit, route, type RouteDef } from '@bop/shared';
import { featureOn, PING_EVENT } from './subscriptions';
import { loadFeatureStates } from '../features/store';

export const eventTypeRoutes = (): RouteDef[] => [
  route('GET /event-types', async (ctx) => {
    const { limit, cursor, area } = ctx.query;
    const states = await loadFeatureStates(ctx);
    const after = decodeCursor(cursor);
    const all = eventTypes.filter((e) => !area || e.area === area);
    const start = after ? all.findIndex((e) => e.type === after) + 1 : 0;
    const n = pageLimit(limit);
    const page = all.slice(start, start + n);
    const hasMore = start + n < all.length;
    return {
      body: {
        data: page.map((e) => ({
          type: e.type,
          area: e.area,
          planned: e.planned,
          feature: e.feature,
          scopes: e.scopes,
          enabled: featureOn(e.feature, states),
          subscribable: !e.planned && e.type !== PING_EVENT,
        })),
        nextCursor: hasMore ? encodeCursor(page[page.length - 1].type) : null,
        hasMore,
      },
    };
  }),
];
