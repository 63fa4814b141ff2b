import { created, ok, route, type RouteDef } from '@bop/shared';
import { permissions } from '@bop/contracts';
import { archiveRole, createRole, listRoles, updateRole } from './store';
import { pageOf } from '../features/catalogue-page';

export const roleRoutes = (): RouteDef[] => [
  route('GET /roles', async (ctx) => ok(await listRoles(ctx.em, ctx.query))),

  route('POST /roles', async (ctx) => created(await createRole(ctx.em, ctx.body, ctx.principal))),

  route('PATCH /roles/{id}', async (ctx) => ok(await updateRole(ctx.em, ctx.params.id, ctx.body, ctx.principal, { expectVersion: ctx.checkVersion }))),

  route('DELETE /roles/{id}', async (ctx) => ok(await archiveRole(ctx.em, ctx.params.id, ctx.principal))),

  route('GET /permissions', async (ctx) => ok(pageOf(permissions, (p) => p.name, ctx.query))),
];
