import { created, noContent, ok, route, type RouteDef } from '@bop/shared';
import { acceptInvitationAndSignIn, completeMfaSignIn, signIn } from './store';
import { callingUser } from '../me/store';
import { changePassword } from './password-store';
import { clientIp } from './client-ip';
import type { Deps } from './deps';

export const authRoutes = ({ policy, limiter }: Deps): RouteDef[] => [
  // the password is checked outside a transaction; the session (or a second factor's challenge) commits in one of its own
  route('POST /auth/sign-in', async (ctx) => ok(await signIn(ctx, policy, limiter, { ...ctx.body, ip: clientIp(ctx.headers) })), { transaction: false }),

  // a wrong code commits its attempt before the 401
  route('POST /auth/sign-in/mfa', async (ctx) => ok(await completeMfaSignIn(ctx, policy, { ...ctx.body, ip: clientIp(ctx.headers) })), { transaction: false }),

  route('POST /auth/invitations:accept', async (ctx) => created(await acceptInvitationAndSignIn(ctx, policy, { ...ctx.body, ip: clientIp(ctx.headers) }))),

  route('POST /auth/password', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    await changePassword(ctx, limiter, user.id, ctx.body);
    return noContent();
  }),
];
