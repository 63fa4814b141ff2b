import { route, type RouteDef } from '@bop/shared';
import { listOwnActivity } from './store';

export const activityRoutes = (): RouteDef[] => [
  route('GET /me/activity', async (ctx) => {
    return { body: await listOwnActivity(ctx, ctx.query) };
  }),
];
