import { route, type RouteDef } from '@bop/shared';
import { listRecognitions, postRecognition } from './store';

export const recognitionRoutes = (): RouteDef[] => [
  route('GET /recognitions', async (ctx) => {
    return { body: await listRecognitions(ctx, ctx.query) };
  }),

  route('POST /recognitions', async (ctx) => {
    return { status: 201, body: await postRecognition(ctx, ctx.body) };
  }),
];
