import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { InsightsConfig } from '../config';
import { recommendationLocations, syncLocation } from './store';
import type { RuleSettings } from './rules';

export const settingsOf = (c: InsightsConfig): RuleSettings => ({
  usageDays: c.INSIGHTS_USAGE_DAYS,
  leadDays: c.INSIGHTS_REORDER_LEAD_DAYS,
  priceRisePercent: c.INSIGHTS_PRICE_RISE_PERCENT,
  varianceItems: c.INSIGHTS_VARIANCE_ITEMS,
  targetSplh: c.INSIGHTS_TARGET_SPLH ?? null,
  staffingDays: c.INSIGHTS_STAFFING_DAYS,
  staffingTolerancePercent: c.INSIGHTS_STAFFING_TOLERANCE_PERCENT,
});

/**
 * The recommendation engine (actor `system`), every INSIGHTS_RECOMMENDATIONS_POLL_MS: each location's
 * recommendations worked out again from the read models, one unit per location.
 */
export const recommendationEngine = (svc: ServiceRuntime<InsightsConfig>) =>
  defineWorker({
    name: 'recommendations',
    every: () => svc.config.INSIGHTS_RECOMMENDATIONS_POLL_MS,
    round: async (r) => {
      const settings = settingsOf(svc.config);
      let created = 0;
      let resolved = 0;
      for (const locationId of await r.read((w) => recommendationLocations(w))) {
        if (r.stopping) return false;
        const n = await r.write((w) => syncLocation(w, locationId, settings));
        created += n.created;
        resolved += n.resolved;
      }
      if (created + resolved > 0) svc.log.info({ created, resolved }, 'recommendations created and resolved');
      return false;
    },
  });
