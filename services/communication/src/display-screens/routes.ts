import { route, type RouteDef } from '@bop/shared';
import { getScreenConfig, listScreens, pairScreen, putScreenConfig, unpairScreen } from './store';

export const displayScreenRoutes = (): RouteDef[] => [
  route('GET /display-screens', async (ctx) => {
    return { body: await listScreens(ctx, ctx.query) };
  }),

  route('POST /display-screens', async (ctx) => {
    const body = await pairScreen(ctx, ctx.body);
    return { status: 201, body, headers: { Location: `/api/v1/display-screens/${body.id}/config` } };
  }),

  route('DELETE /display-screens/{id}', async (ctx) => {
    return { body: await unpairScreen(ctx, ctx.params.id) };
  }),

  route('GET /display-screens/{id}/config', async (ctx) => {
    return { body: await getScreenConfig(ctx, ctx.params.id) };
  }),

  route('PUT /display-screens/{id}/config', async (ctx) => {
    return { body: await putScreenConfig(ctx, ctx.params.id, ctx.body) };
  }),
];
