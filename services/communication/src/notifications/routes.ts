import { ownEmployeeId, route, type RouteDef } from '@bop/shared';
import { markRead, myNotifications, myPreferences, replacePreferences } from './my-store';

export const notificationRoutes = (): RouteDef[] => [
  route('GET /me/notifications', async (ctx) => {
    return { body: await myNotifications(ctx, ownEmployeeId(ctx.principal), ctx.query) };
  }),

  route('POST /me/notifications:mark-read', async (ctx) => {
    return { body: await markRead(ctx, ownEmployeeId(ctx.principal), ctx.body) };
  }),

  route('GET /me/notification-preferences', async (ctx) => {
    return { body: await myPreferences(ctx, ownEmployeeId(ctx.principal)) };
  }),

  route('PUT /me/notification-preferences', async (ctx) => {
    return { body: await replacePreferences(ctx, ownEmployeeId(ctx.principal), ctx.body) };
  }),
];
