import { route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { WebhooksConfig } from '../config';
import { assertEveryone } from '../endpoints/store';
import { listReplays, replayRunning, startReplay } from './store';

export const replayRoutes = ({ config }: ServiceRuntime<WebhooksConfig>): RouteDef[] => [
  route(
    'POST /webhook-endpoints/{id}:replay',
    async (ctx) => {
      assertEveryone(ctx.reach());
      return { status: 202, body: await startReplay(ctx, ctx.params.id, ctx.body, config.EVENT_LOG_RETENTION_DAYS) };
    },
    { conflict: () => replayRunning(null) },
  ),

  route('GET /webhook-endpoints/{id}/replays', async (ctx) => {
    assertEveryone(ctx.reach());
    return { body: await listReplays(ctx, ctx.params.id, ctx.query) };
  }),
];
