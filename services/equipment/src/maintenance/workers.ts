import { RoundWorker, type Logger, type Orm } from '@bop/shared';
import { runDailyCheck } from './schedule-store';

/**
 * The daily maintenance check (actor `system`): date plans come due on their day at the asset's
 * location. Run every EQUIPMENT_MAINTENANCE_CHECK_MS, so a plan is announced within that time of the
 * local midnight (and at once after a restart); an occurrence is announced once, however often it runs.
 */
export class MaintenanceCheckWorker extends RoundWorker {
  readonly name = 'maintenance-due-check';

  constructor(private readonly opts: { orm: Orm; log: Logger; pollMs: number }) {
    super(opts.log);
  }

  protected async round(): Promise<number> {
    const announced = await runDailyCheck(this.opts.orm.em.fork());
    if (announced > 0) this.opts.log.info({ announced }, 'maintenance plans came due');
    return this.opts.pollMs;
  }
}
