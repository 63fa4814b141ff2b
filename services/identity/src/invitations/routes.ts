import { created, ok, route, type RouteDef } from '@bop/shared';
import { createInvitation, listInvitations, revokeInvitation } from './store';
import type { Deps } from '../sessions/deps';

export const invitationRoutes = ({ config }: Deps): RouteDef[] => [
  route('GET /invitations', async (ctx) => ok(await listInvitations(ctx.em, ctx.query))),

  route('POST /invitations', async (ctx) => created(await createInvitation(ctx.em, ctx.body, config.INVITATION_VALID_DAYS, ctx.principal))),

  route('DELETE /invitations/{id}', async (ctx) => ok(await revokeInvitation(ctx.em, ctx.params.id, ctx.principal))),
];
