import { Conflict, created, ok, route, type RouteDef } from '@bop/shared';
import { permissions } from '@bop/contracts';
import { archiveRole, createRole, listRoles, updateRole } from './store';
import { pageOf } from '../features/catalogue-page';

/** a role named as another in a race the name check could not see (the unique index on lower(name)) */
const duplicateName = { conflict: () => new Conflict('An active role with that name exists.') };

export const roleRoutes = (): RouteDef[] => [
  route('GET /roles', async (ctx) => ok(await listRoles(ctx, ctx.query))),

  route('POST /roles', async (ctx) => created(await createRole(ctx, ctx.body)), duplicateName),

  route('PATCH /roles/{id}', async (ctx) => ok(await updateRole(ctx, ctx.params.id, ctx.body)), duplicateName),

  route('DELETE /roles/{id}', async (ctx) => ok(await archiveRole(ctx, ctx.params.id))),

  route('GET /permissions', async (ctx) => ok(pageOf(permissions, (p) => p.name, ctx.query))),
];
