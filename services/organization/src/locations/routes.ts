import { route, type RouteDef } from '@bop/shared';
import { archiveLocation, externalIdTaken, listLocations, patchLocation, putLocationByExternalId, readLocation, registerLocation } from './store';

export const locationRoutes = (): RouteDef[] => [
  route('GET /locations', async (ctx) => {
    return { body: await listLocations(ctx, ctx.query) };
  }),

  route(
    'POST /locations',
    async (ctx) => {
      const dto = await registerLocation(ctx, ctx.body);
      return { status: 201, body: dto, headers: { Location: `/api/v1/locations/${dto.id}` } };
    },
    { conflict: externalIdTaken },
  ),

  route('GET /locations/{id}', async (ctx) => {
    return { body: await readLocation(ctx, { id: ctx.params.id }) };
  }),

  route('GET /locations/external/{externalId}', async (ctx) => {
    return { body: await readLocation(ctx, { externalId: ctx.params.externalId }) };
  }),

  route(
    'PATCH /locations/{id}',
    async (ctx) => {
      return { body: await patchLocation(ctx, ctx.params.id, ctx.body) };
    },
    { conflict: externalIdTaken },
  ),

  // two first PUTs of one externalId racing: the loser runs again (the kit's race retry) and replaces
  route('PUT /locations/external/{externalId}', async (ctx) => {
    const result = await putLocationByExternalId(ctx, ctx.params.externalId, ctx.body);
    return { status: result.status, body: result.dto };
  }),

  route('DELETE /locations/{id}', async (ctx) => {
    return { body: await archiveLocation(ctx, ctx.params.id) };
  }),
];
