import { route, type RouteDef } from '@bop/shared';
import { archiveAsset, createAsset, getAsset, listAssets, patchAsset, recordMeterReadings } from './store';

export const assetRoutes = (): RouteDef[] => [
  route('GET /assets', async (ctx) => {
    return { body: await listAssets(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /assets', async (ctx) => {
    return { status: 201, body: await createAsset(ctx.em, ctx.body, ctx) };
  }),

  route('GET /assets/{id}', async (ctx) => {
    return { body: await getAsset(ctx.em, ctx.params.id, ctx.reach()) };
  }),

  route('PATCH /assets/{id}', async (ctx) => {
    return { body: await patchAsset(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('DELETE /assets/{id}', async (ctx) => {
    return { body: await archiveAsset(ctx.em, ctx.params.id, ctx) };
  }),

  route('POST /assets/{id}/meter-readings', async (ctx) => {
    return { status: 201, body: await recordMeterReadings(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),
];
