import { created, ok, route, type RouteDef } from '@bop/shared';
import { createInvitation, listInvitations, revokeInvitation } from './store';
import type { Deps } from '../sessions/deps';

export const invitationRoutes = ({ config }: Deps): RouteDef[] => [
  route('GET /invitations', async (ctx) => ok(await listInvitations(ctx, ctx.query))),

  route('POST /invitations', async (ctx) => created(await createInvitation(ctx, ctx.body, config.INVITATION_VALID_DAYS))),

  route('DELETE /invitations/{id}', async (ctx) => ok(await revokeInvitation(ctx, ctx.params.id))),
];
