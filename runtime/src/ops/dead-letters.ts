import type { Command } from 'commander';
import { ConsumerRunner, listDeadLetters } from '@bop/shared';
import { serviceDefinitions } from '../services';
import { exits, log, withDatabase, withServiceRuntime } from './context';

interface Filter {
  service?: string;
  id?: string;
}

async function deadLetters(sub: 'list' | 'retry', opts: Filter): Promise<number> {
  return withDatabase(async (url) => {
    let total = 0;
    let failing = 0;
    for (const def of serviceDefinitions) {
      if (opts.service && opts.service !== def.name) continue;
      await withServiceRuntime(def, url, async (runtime) => {
        if (sub === 'list') {
          for (const d of await listDeadLetters(runtime.orm, runtime.schema)) {
            total += 1;
            const payload = d.payload === '' ? '(not kept: see the log line of its parking)' : d.payload.length > 500 ? `${d.payload.slice(0, 500)}… (${d.payload.length} characters)` : d.payload;
            console.log(`${def.name}  #${d.id}  ${d.consumer}  ${d.type}  ${d.eventId}  ${d.topic}@${d.position}  attempts ${d.attempts}  ${d.createdAt}\n    ${d.error}\n    payload ${payload}`);
          }
          return;
        }
        const runner = new ConsumerRunner(def.consumers?.(runtime) ?? [], { service: def.name, schema: runtime.schema, orm: runtime.orm, bus: runtime.bus, log, scope: { schema: runtime.schema, clock: runtime.clock, log, services: runtime.services } });
        const r = await runner.retryDeadLetters(opts.id);
        total += r.retried;
        failing += r.stillFailing;
      });
    }
    console.log(sub === 'list' ? `${total} dead letter(s)` : `retried ${total}, still failing ${failing}`);
    return failing > 0 ? 1 : 0;
  });
}

/** `dead-letters list|retry`: events a consumer could not handle. */
export function addDeadLetterCommands(program: Command): void {
  const group = program.command('dead-letters').description('list | retry: events a consumer could not handle (exit 1 while some still fail)');
  group
    .command('list')
    .description('parked events: consumer, type, topic@position, error and the payload')
    .option('--service <name>', 'only this service')
    .action(exits((opts: Filter) => deadLetters('list', opts)));
  group
    .command('retry')
    .description('runs parked events again (exit 1 while some still fail)')
    .option('--service <name>', 'only this service')
    .option('--id <n>', 'only this dead letter')
    .action(exits((opts: Filter) => deadLetters('retry', opts)));
}
