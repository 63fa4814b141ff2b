import type { Command } from 'commander';
import { insightsService, rebuildReadModels } from '@svc/insights';
import { exits, withDatabase, withServiceRuntime } from './context';

/**
 * `insights rebuild`: clears insights' read models and replays the bus into them, printing its
 * progress; exit 1 when an event could not be applied (its consumer refuses it) or a read model
 * came back with fewer rows than it had (the bus no longer keeps every event it was built from).
 */
const rebuild = (opts: { json?: boolean }) =>
  withDatabase((url) =>
    withServiceRuntime(insightsService, url, async (runtime) => {
      if (!opts.json) console.log('insights: clearing the read models, then replaying every event the bus keeps');
      const result = await rebuildReadModels(runtime, {
        onProgress: (p) => {
          if (!opts.json) console.log(`  ${p.applied} events applied${p.behind === null ? '' : `, ${p.behind} messages of the bus still to read`}`);
        },
      });
      const fewer = Object.entries(result.rows).filter(([, r]) => r.after < r.before);
      if (opts.json) console.log(JSON.stringify(result));
      else {
        for (const [table, r] of Object.entries(result.rows)) console.log(`  ${table.padEnd(20)} ${String(r.before).padStart(9)} rows before  ${String(r.after).padStart(9)} after`);
        console.log(`rebuilt from ${result.applied} events in ${(result.ms / 1000).toFixed(1)} s (${result.id})`);
      }
      for (const x of result.skipped) console.error(`  skipped ${x.type} ${x.eventId} (bus position ${x.position}): ${x.error}`);
      if (result.skipped.length > 0) {
        console.error(`error: ${result.skipped.length} event(s) could not be applied (their consumer refuses them: see dead-letters list)`);
        return 1;
      }
      if (fewer.length > 0) {
        console.error(`error: fewer rows than before in ${fewer.map(([t]) => t).join(', ')}: the bus no longer keeps every event they were built from (BUS_RETENTION_HOURS, or the Kafka topics' retention)`);
        return 1;
      }
      return 0;
    }),
  );

/** `insights rebuild`: insights' read models rebuilt from the bus. */
export function addInsightsCommands(program: Command): void {
  const group = program.command('insights').description("rebuild: insights' read models from the bus");
  group
    .command('rebuild')
    .description('clears the read models (sales, labor, scheduled shifts, waste, over/short) and replays the events the bus keeps into them, with progress')
    .option('--json', 'the result as JSON (no progress lines)')
    .action(exits(rebuild));
}
