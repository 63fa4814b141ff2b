import type { Command } from 'commander';
import type { ServiceRuntime } from '@bop/shared';
import { webhooksAdmin, webhooksService } from '@svc/webhooks';
import { exits, withDatabase, withServiceRuntime } from './context';

const withWebhooks = (fn: (runtime: ServiceRuntime) => Promise<number>): Promise<number> =>
  withDatabase((url) => withServiceRuntime(webhooksService, url, (runtime) => fn(runtime)));

const listEndpoints = () =>
  withWebhooks(async (runtime) => {
    const list = await runtime.read((w) => webhooksAdmin.listEndpoints(w));
    for (const e of list) {
      console.log(`${e.id}  ${e.status.padEnd(8)}  pending ${e.pendingDeliveries}  failed ${e.failedDeliveries}  ${e.url}${e.integrationId ? `  (integration ${e.integrationId})` : ''}`);
    }
    console.log(`${list.length} endpoint(s)`);
    return 0;
  });

const enableEndpoint = (id: string) =>
  withWebhooks(async (runtime) => {
    await runtime.write((w) => webhooksAdmin.enableEndpoint(w, id));
    console.log(`${id} enabled; its queued deliveries are sent in order`);
    return 0;
  });

const retryFailed = (id: string) =>
  withWebhooks(async (runtime) => {
    console.log(`${await runtime.write((w) => webhooksAdmin.retryFailed(w, id))} failed deliveries of ${id} queued again`);
    return 0;
  });

/** `webhooks list | enable <id> | retry-failed <id>`: webhook endpoints and their queues. */
export function addWebhookCommands(program: Command): void {
  const group = program.command('webhooks').description('list | enable <id> | retry-failed <id>: webhook endpoints and their queues');
  group.command('list', { isDefault: true }).description('endpoints with their pending and failed deliveries').action(exits(listEndpoints));
  group.command('enable <id>').description('enables an endpoint; its queued deliveries are sent in order').action(exits(enableEndpoint));
  group.command('retry-failed <id>').description("queues an endpoint's failed deliveries again").action(exits(retryFailed));
}
