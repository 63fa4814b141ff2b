import { route, type RouteDef } from '@bop/shared';
import { listRecommendations } from './store';

export const recommendationRoutes = (): RouteDef[] => [route('GET /recommendations', async (ctx) => ({ status: 200, body: await listRecommendations(ctx, ctx.query) }))];
