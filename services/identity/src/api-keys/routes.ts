import { created, Forbidden, noContent, ok, reachFor, route, type Principal, type RouteDef } from '@bop/shared';
import { createPersonalKey, listPersonalKeys, revokePersonalKey } from './store';
import { callingUser } from '../me/store';

/** `self, or api_keys.manage`: the gateway lets every person through; the service decides. */
const managesKeys = (p: Principal) => reachFor(p, 'api_keys.manage') !== null && p.kind === 'user';

export const apiKeyRoutes = (): RouteDef[] => [
  route('POST /auth/api-keys', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    return created(await createPersonalKey(ctx, { userId: user.id, ...ctx.body }));
  }),

  route('GET /auth/api-keys', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    const userId = ctx.query.userId ?? user.id;
    if (userId !== user.id && !managesKeys(ctx.principal)) throw new Forbidden('Listing another person\'s keys needs the permission api_keys.manage.');
    return ok(await listPersonalKeys(ctx, userId, ctx.query));
  }),

  route('DELETE /auth/api-keys/{id}', async (ctx) => {
    const user = await callingUser(ctx, ctx.principal);
    await revokePersonalKey(ctx, ctx.params.id, { userId: user.id, mayRevokeOthers: managesKeys(ctx.principal) });
    return noContent();
  }),
];
