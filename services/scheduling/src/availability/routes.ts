import { ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { addWindow, archiveWindow, changeWindow, getWindow, listWindows } from './store';

export const availabilityRoutes = (): RouteDef[] => [
  route('GET /availability', async (ctx) => {
    const { employeeId, locationId, status, limit, cursor, updatedSince } = ctx.query;
    return { body: await listWindows(ctx, { employeeId, locationId, status, reach: ctx.reach() }, { limit, cursor, updatedSince }) };
  }),

  route('POST /availability', async (ctx) => {
    const { employeeId, ...window } = ctx.body;
    const a = await addWindow(ctx, employeeId, window, ctx.reach());
    return { status: 201, body: a, headers: { Location: `/api/v1/availability/${a.id}` } };
  }),

  route('GET /availability/{id}', async (ctx) => {
    return { body: await getWindow(ctx, ctx.params.id) };
  }),

  route('PATCH /availability/{id}', async (ctx) => {
    return { body: await changeWindow(ctx, ctx.params.id, ctx.body) };
  }),

  route('DELETE /availability/{id}', async (ctx) => {
    return { body: await archiveWindow(ctx, ctx.params.id, { reach: ctx.reach() }) };
  }),

  route('GET /me/availability', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listWindows(ctx, { employeeId: ownEmployeeId(ctx.principal), reach: null }, { limit, cursor }) };
  }),

  route('POST /me/availability', async (ctx) => {
    const a = await addWindow(ctx, ownEmployeeId(ctx.principal), ctx.body, null);
    return { status: 201, body: a, headers: { Location: `/api/v1/me/availability/${a.id}` } };
  }),

  route('DELETE /me/availability/{id}', async (ctx) => {
    await archiveWindow(ctx, ctx.params.id, { employeeId: ownEmployeeId(ctx.principal) });
    return { status: 204 };
  }),
];
