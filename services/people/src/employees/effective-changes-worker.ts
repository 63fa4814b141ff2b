import { defineWorker, type ServiceRuntime, type WorkerRound } from '@bop/shared';
import type { PeopleConfig } from '../config';
import { ANONYMISE_PER_ROUND, anonymiseEmployee, applyDueChange, dueChanges, expiredEmployees } from './lifecycle-store';
import { peopleSettings } from '../settings/company-settings';

/** What a pass runs its units with (a worker's round; the service's runtime in tests and commands). */
type Units = Pick<WorkerRound, 'read' | 'write'>;

/**
 * Every scheduled transfer and termination whose day has come at the employee's (new) home location
 * is applied, one employee per unit (transaction), actor `system`. Answers how many changes were applied.
 */
export async function applyDueChanges(r: Units): Promise<number> {
  const due = await r.read((w) => dueChanges(w));
  let applied = 0;
  for (const c of due) applied += await r.write((w) => applyDueChange(w, c));
  return applied;
}

/**
 * Anonymises the archived employees whose retention period has passed (at most
 * ANONYMISE_PER_ROUND), one per unit, actor `system`. Answers how many were looked at.
 */
export async function anonymiseExpired(r: Units, retentionDays: number): Promise<number> {
  const ids = await r.read((w) => expiredEmployees(w, retentionDays));
  for (const id of ids) await r.write((w) => anonymiseEmployee(w, id));
  return ids.length;
}

/**
 * Applies scheduled transfers and terminations on their day (in the home location's time zone),
 * actor `system`, and anonymises archived employees past the retention period (company settings;
 * skipped while identity cannot be asked): the "daily job", run every PEOPLE_EFFECTIVE_CHANGES_POLL_MS
 * so a change takes effect within that time of the local midnight, and after a restart at once.
 */
export const effectiveChanges = (svc: ServiceRuntime<PeopleConfig>) =>
  defineWorker({
    name: 'employee-effective-changes',
    every: () => svc.config.PEOPLE_EFFECTIVE_CHANGES_POLL_MS,
    round: async (r) => {
      const applied = await applyDueChanges(r);
      if (applied > 0) svc.log.info({ applied }, 'scheduled employee changes applied');
      const settings = await peopleSettings(svc.services).catch((err) => {
        svc.log.warn({ err: (err as Error).message }, 'company settings unreadable: anonymisation waits');
        return null;
      });
      if (!settings) return false;
      const anonymised = await anonymiseExpired(r, settings.employeeRetentionDays);
      if (anonymised > 0) svc.log.info({ anonymised }, 'archived employees anonymised after the retention period');
      // a full batch: more may be waiting
      return anonymised === ANONYMISE_PER_ROUND;
    },
  });
