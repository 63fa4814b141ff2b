import { ok, route, type RouteDef } from '@bop/shared';
import { completeMfaSignIn, signIn } from '../actions/sessions';
import { clientIp } from '../lib/http';
import type { Deps } from './deps';

export const authRoutes = ({ policy, limiter }: Deps): RouteDef[] => [
  route('POST /auth/sign-in', async (ctx) => ok(await signIn(ctx.em, policy, limiter, { ...ctx.body, ip: clientIp(ctx.headers) }))),

  route('POST /auth/sign-in/mfa', async (ctx) => ok(await completeMfaSignIn(ctx.em, policy, { ...ctx.body, ip: clientIp(ctx.headers) }))),
];
