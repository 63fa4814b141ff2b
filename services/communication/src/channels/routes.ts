import { route, type RouteDef } from '@bop/shared';
import { createChannel, listChannels, listMessages, postMessage } from './store';

export const channelRoutes = (): RouteDef[] => [
  route('GET /channels', async (ctx) => {
    return { body: await listChannels(ctx, ctx.query) };
  }),

  route('POST /channels', async (ctx) => {
    return { status: 201, body: await createChannel(ctx, ctx.body) };
  }),

  route('GET /channels/{id}/messages', async (ctx) => {
    const { limit, cursor } = ctx.query;
    return { body: await listMessages(ctx, ctx.params.id, { limit, cursor }) };
  }),

  route('POST /channels/{id}/messages', async (ctx) => {
    return { status: 201, body: await postMessage(ctx, ctx.params.id, ctx.body) };
  }),
];
