import { created, noContent, ok, route, type RouteDef } from '@bop/shared';
import { acceptInvitationAndSignIn, completeMfaSignIn, signIn } from './store';
import { callingUser } from '../me/store';
import { changePassword } from './password-store';
import { clientIp } from './client-ip';
import type { Deps } from './deps';

export const authRoutes = ({ policy, limiter }: Deps): RouteDef[] => [
  route('POST /auth/sign-in', async (ctx) => ok(await signIn(ctx.em, policy, limiter, { ...ctx.body, ip: clientIp(ctx.headers) }))),

  route('POST /auth/sign-in/mfa', async (ctx) => ok(await completeMfaSignIn(ctx.em, policy, { ...ctx.body, ip: clientIp(ctx.headers) }))),

  route('POST /auth/invitations:accept', async (ctx) => created(await acceptInvitationAndSignIn(ctx.em, policy, { ...ctx.body, ip: clientIp(ctx.headers) }))),

  route('POST /auth/password', async (ctx) => {
    const user = await callingUser(ctx.em, ctx.principal);
    await changePassword(ctx.em, limiter, user.id, ctx.body, ctx.principal);
    return noContent();
  }),
];
