import { route, type RouteDef } from '@bop/shared';
import { archiveLocation, listLocations, patchLocation, putLocationByExternalId, readLocation, registerLocation } from './store';

export const locationRoutes = (): RouteDef[] => [
  route('GET /locations', async (ctx) => {
    return { body: await listLocations(ctx.em, ctx.query, ctx.reach()) };
  }),

  route('POST /locations', async (ctx) => {
    const dto = await registerLocation(ctx.em, ctx.body, ctx);
    return { status: 201, body: dto, headers: { Location: `/api/v1/locations/${dto.id}` } };
  }),

  route('GET /locations/{id}', async (ctx) => {
    return { body: await readLocation(ctx.em, { id: ctx.params.id }, ctx) };
  }),

  route('GET /locations/external/{externalId}', async (ctx) => {
    return { body: await readLocation(ctx.em, { externalId: ctx.params.externalId }, ctx) };
  }),

  route('PATCH /locations/{id}', async (ctx) => {
    return { body: await patchLocation(ctx.em, ctx.params.id, ctx.body, ctx) };
  }),

  route('PUT /locations/external/{externalId}', async (ctx) => {
    const result = await putLocationByExternalId(ctx.em, ctx.params.externalId, ctx.body, ctx);
    return { status: result.status, body: result.dto };
  }),

  route('DELETE /locations/{id}', async (ctx) => {
    return { body: await archiveLocation(ctx.em, ctx.params.id, ctx) };
  }),
];
