import type { Command } from 'commander';
import { integrationsAdmin, integrationsService } from '@svc/integrations';
import { exits, withDatabase, withServiceRuntime } from './context';

async function listIntegrations(): Promise<number> {
  return withDatabase((url) =>
    withServiceRuntime(integrationsService, url, async (runtime) => {
      const list = await runtime.read((w) => integrationsAdmin.listIntegrations(w));
      for (const i of list) console.log(`${i.id}  ${i.status.padEnd(6)}  health ${String(i.health).padEnd(7)}  ${i.name} ${i.version}`);
      console.log(`${list.length} integration(s)`);
      return 0;
    }),
  );
}

/** `integrations list`. */
export function addIntegrationCommands(program: Command): void {
  const group = program.command('integrations').description('list: integrations with status and health');
  group.command('list', { isDefault: true }).description('integrations with status and health').action(exits(listIntegrations));
}
