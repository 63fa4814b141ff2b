import { defineWorker, type ServiceRuntime } from '@bop/shared';
import type { InsightsConfig } from '../config';
import { evaluateMarked, markedRules, markRolledOver } from './evaluation-store';
import { rebuildRunning } from '../rebuild/store';

/** Rules evaluated per round (each in its own transaction). */
const RULES_PER_ROUND = 50;
/** Pairs whose window rolled over, marked per round. */
const ROLLOVERS_PER_ROUND = 1000;

/**
 * Evaluates the (rule, location) pairs the read models' consumers marked, and those whose window
 * rolled over (a new business day began): a burst of writes marks a pair once, so it is evaluated
 * once per round, not once per write. While the read models are rebuilt, it waits.
 */
export const alertEvaluation = (svc: ServiceRuntime<InsightsConfig>) =>
  defineWorker({
    name: 'alert-evaluation',
    every: () => svc.config.INSIGHTS_ALERTS_POLL_MS,
    backoff: { baseMs: 500, capMs: 30_000 },
    round: async (r) => {
      // the read models are being rebuilt: their figures are partial until it ends
      if (await r.read((w) => rebuildRunning(w))) return false;
      const rolled = await r.write((w) => markRolledOver(w, ROLLOVERS_PER_ROUND));
      const rules = await r.read((w) => markedRules(w, RULES_PER_ROUND));
      for (const ruleId of rules) {
        if (r.stopping) return true;
        await r.write((w) => evaluateMarked(w, ruleId));
      }
      return rolled === ROLLOVERS_PER_ROUND || rules.length === RULES_PER_ROUND;
    },
  });
