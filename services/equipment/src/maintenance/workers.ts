import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { EquipmentConfig } from '../config';
import { announceDatePlan, datePlansToCheck } from './schedule-store';

/**
 * The daily maintenance check (actor `system`): date plans come due on their day at the asset's
 * location. Run every EQUIPMENT_MAINTENANCE_CHECK_MS, so a plan is announced within that time of the
 * local midnight (and at once after a restart); an occurrence is announced once, however often it runs.
 */
export const maintenanceCheck = (svc: ServiceRuntime<EquipmentConfig>) =>
  defineWorker({
    name: 'maintenance-due-check',
    every: () => svc.config.EQUIPMENT_MAINTENANCE_CHECK_MS,
    round: async (r) => {
      const planIds = await r.read((w) => datePlansToCheck(w));
      let announced = 0;
      // one unit (transaction) per plan
      for (const id of planIds) announced += await r.write((w) => announceDatePlan(w, id));
      if (announced > 0) svc.log.info({ announced }, 'maintenance plans came due');
      return false;
    },
  });
