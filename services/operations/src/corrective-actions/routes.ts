import { route, type RouteDef } from '@bop/shared';
import { closeCorrectiveAction, createCorrectiveAction, listCorrectiveActions, patchCorrectiveAction, readCorrectiveAction } from './store';

/** Corrective actions (spec: Forms, checklists and compliance), within the reach of `corrective_actions.manage` by location. */
export const correctiveActionRoutes = (): RouteDef[] => [
  route('GET /corrective-actions', async (ctx) => {
    return { body: await listCorrectiveActions(ctx, ctx.query) };
  }),

  route('POST /corrective-actions', async (ctx) => {
    const action = await createCorrectiveAction(ctx, ctx.body);
    return { status: 201, body: action, headers: { Location: `/api/v1/corrective-actions/${action.id}` } };
  }),

  route('GET /corrective-actions/{id}', async (ctx) => {
    return { body: await readCorrectiveAction(ctx, ctx.params.id) };
  }),

  route('PATCH /corrective-actions/{id}', async (ctx) => {
    return { body: await patchCorrectiveAction(ctx, ctx.params.id, ctx.body) };
  }),

  route('POST /corrective-actions/{id}:close', async (ctx) => {
    return { body: await closeCorrectiveAction(ctx, ctx.params.id, ctx.body) };
  }),
];
