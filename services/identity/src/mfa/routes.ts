import { ok, route, type RouteDef } from '@bop/shared';
import { callingUser } from '../me/store';
import { confirmEnrollment, startEnrollment } from './store';
import type { Deps } from '../sessions/deps';

export const mfaRoutes = ({ config }: Deps): RouteDef[] => [
  route('POST /auth/mfa/enrollment', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    return ok(await startEnrollment(ctx, user.id, config.MFA_ISSUER));
  }),

  route('POST /auth/mfa/enrollment:confirm', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    return ok(await confirmEnrollment(ctx, user.id, ctx.body.code));
  }),
];
