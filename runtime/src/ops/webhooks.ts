import type { Command } from 'commander';
import type { EntityManager } from '@bop/shared';
import { webhooksAdmin, webhooksService } from '@svc/webhooks';
import { exits, withDatabase, withServiceRuntime } from './context';

const withWebhooks = (fn: (em: EntityManager) => Promise<number>): Promise<number> =>
  withDatabase((url) => withServiceRuntime(webhooksService, url, (runtime) => fn(runtime.orm.em)));

const listEndpoints = () =>
  withWebhooks(async (em) => {
    const list = await webhooksAdmin.listEndpoints(em);
    for (const e of list) {
      console.log(`${e.id}  ${e.status.padEnd(8)}  pending ${e.pendingDeliveries}  failed ${e.failedDeliveries}  ${e.url}${e.integrationId ? `  (integration ${e.integrationId})` : ''}`);
    }
    console.log(`${list.length} endpoint(s)`);
    return 0;
  });

const enableEndpoint = (id: string) =>
  withWebhooks(async (em) => {
    await webhooksAdmin.enableEndpoint(em, id);
    console.log(`${id} enabled; its queued deliveries are sent in order`);
    return 0;
  });

const retryFailed = (id: string) =>
  withWebhooks(async (em) => {
    console.log(`${await webhooksAdmin.retryFailed(em, id)} failed deliveries of ${id} queued again`);
    return 0;
  });

/** `webhooks list | enable <id> | retry-failed <id>`: webhook endpoints and their queues. */
export function addWebhookCommands(program: Command): void {
  const group = program.command('webhooks').description('list | enable <id> | retry-failed <id>: webhook endpoints and their queues');
  group.command('list', { isDefault: true }).description('endpoints with their pending and failed deliveries').action(exits(listEndpoints));
  group.command('enable <id>').description('enables an endpoint; its queued deliveries are sent in order').action(exits(enableEndpoint));
  group.command('retry-failed <id>').description("queues an endpoint's failed deliveries again").action(exits(retryFailed));
}
