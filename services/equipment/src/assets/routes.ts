import { route, type RouteDef } from '@bop/shared';
import { archiveAsset, createAsset, getAsset, listAssets, patchAsset, recordMeterReadings, serialTaken } from './store';

export const assetRoutes = (): RouteDef[] => [
  route('GET /assets', async (ctx) => {
    return { body: await listAssets(ctx, ctx.query) };
  }),

  route(
    'POST /assets',
    async (ctx) => {
      return { status: 201, body: await createAsset(ctx, ctx.body) };
    },
    { conflict: serialTaken },
  ),

  route('GET /assets/{id}', async (ctx) => {
    return { body: await getAsset(ctx, ctx.params.id) };
  }),

  route(
    'PATCH /assets/{id}',
    async (ctx) => {
      return { body: await patchAsset(ctx, ctx.params.id, ctx.body) };
    },
    { conflict: serialTaken },
  ),

  route('DELETE /assets/{id}', async (ctx) => {
    return { body: await archiveAsset(ctx, ctx.params.id) };
  }),

  route('POST /assets/{id}/meter-readings', async (ctx) => {
    return { status: 201, body: await recordMeterReadings(ctx, ctx.params.id, ctx.body) };
  }),
];
