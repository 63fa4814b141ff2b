import { Conflict, ok, route, type RouteDef } from '@bop/shared';
import { deactivateUser, getUser, listUsers, replaceAssignments, resetMfa, updateUser } from './store';

export const userRoutes = (): RouteDef[] => [
  route('GET /users', async (ctx) => ok(await listUsers(ctx, ctx.query))),

  route('GET /users/{id}', async (ctx) => ok(await getUser(ctx, ctx.params.id))),

  // an employee linked to two users in a race the check could not see (the unique index on employee_id)
  route('PATCH /users/{id}', async (ctx) => ok(await updateUser(ctx, ctx.params.id, ctx.body)), { conflict: () => new Conflict('The employee is already linked to another user.') }),

  route('DELETE /users/{id}', async (ctx) => ok(await deactivateUser(ctx, ctx.params.id))),

  route('POST /users/{id}:reset-mfa', async (ctx) => ok(await resetMfa(ctx, ctx.params.id))),

  route('PUT /users/{id}/assignments', async (ctx) => ok(await replaceAssignments(ctx, ctx.params.id, ctx.body.assignments))),
];
