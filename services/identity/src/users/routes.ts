import { ok, route, type RouteDef } from '@bop/shared';
import { deactivateUser, getUser, listUsers, replaceAssignments, resetMfa, updateUser } from './store';

export const userRoutes = (): RouteDef[] => [
  route('GET /users', async (ctx) => ok(await listUsers(ctx.em, ctx.query))),

  route('GET /users/{id}', async (ctx) => ok(await getUser(ctx.em, ctx.params.id))),

  route('PATCH /users/{id}', async (ctx) => ok(await updateUser(ctx.em, ctx.params.id, ctx.body, ctx.principal, { expectVersion: ctx.checkVersion }))),

  route('DELETE /users/{id}', async (ctx) => ok(await deactivateUser(ctx.em, ctx.params.id, ctx.principal))),

  route('POST /users/{id}:reset-mfa', async (ctx) => ok(await resetMfa(ctx.em, ctx.params.id, ctx.principal))),

  route('PUT /users/{id}/assignments', async (ctx) =>
    ok(await replaceAssignments(ctx.em, ctx.params.id, ctx.body.assignments, ctx.principal, { expectVersion: ctx.checkVersion })),
  ),
];
