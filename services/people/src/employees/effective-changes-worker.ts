import { RoundWorker, type Logger, type Orm, type ServiceClient } from '@bop/shared';
import { anonymiseExpired, applyDueChanges } from './lifecycle-store';
import { peopleSettings } from '../settings/company-settings';

/**
 * Applies scheduled transfers and terminations on their day (in the home location's time zone),
 * actor `system`, and anonymises archived employees past the retention period (company settings;
 * skipped while identity cannot be asked): the "daily job", run every PEOPLE_EFFECTIVE_CHANGES_POLL_MS
 * so a change takes effect within that time of the local midnight, and after a restart at once.
 */
export class EffectiveChangesWorker extends RoundWorker {
  readonly name = 'employee-effective-changes';

  constructor(private readonly opts: { orm: Orm; log: Logger; pollMs: number; services: ServiceClient }) {
    super(opts.log);
  }

  protected async round(): Promise<number> {
    const applied = await applyDueChanges(this.opts.orm.em.fork());
    if (applied > 0) this.opts.log.info({ applied }, 'scheduled employee changes applied');
    const settings = await peopleSettings(this.opts.services).catch((err) => {
      this.opts.log.warn({ err: (err as Error).message }, 'company settings unreadable: anonymisation waits');
      return null;
    });
    if (settings) {
      const anonymised = await anonymiseExpired(this.opts.orm.em.fork(), settings.employeeRetentionDays);
      if (anonymised > 0) this.opts.log.info({ anonymised }, 'archived employees anonymised after the retention period');
    }
    return this.opts.pollMs;
  }
}
