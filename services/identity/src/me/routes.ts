import { ok, route, type RouteDef } from '@bop/shared';
import { describeCaller, describeSession } from './store';
import type { Deps } from '../sessions/deps';

export const meRoutes = ({ policy }: Deps): RouteDef[] => [
  route('GET /me', async (ctx) => ok(await describeCaller(ctx, ctx.principal, policy.idleMs))),

  route('GET /auth/session', async (ctx) => ok(await describeSession(ctx, ctx.principal, policy.idleMs))),
];
