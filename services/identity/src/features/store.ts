import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError, Conflict, lockForTransaction, type Work } from '@bop/shared';
import { FeatureSwitch } from './entities';
import { blockingAncestor, featureStates, isKnownFeature, type FeatureState } from './feature-states';
import { emit } from '../users/events-store';

async function switches(em: EntityManager): Promise<Map<string, boolean>> {
  const rows = await em.find(FeatureSwitch, {});
  return new Map(rows.map((r) => [r.key, r.enabled]));
}

/** Every feature of the catalogue with `enabled` (own switch) and `effective` (with its ancestors). */
export async function listFeatures(w: Work): Promise<FeatureState[]> {
  return featureStates(await switches(w.em));
}

/**
 * POST /features/{key}:enable|disable. Only the named switch changes: a child keeps its own state while
 * its parent is off (its effective state follows the parent), so switching the parent on again restores
 * the children as they were. Enabling a child while an ancestor is off is refused with 409.
 */
export async function setFeature(w: Work, key: string, enabled: boolean): Promise<FeatureState> {
  if (!isKnownFeature(key)) throw new ApiError('not_found', `No feature ${key}.`);
  const em = w.em;
  await lockForTransaction(em, 'identity.features');
  const current = await switches(em);
  if (enabled) {
    const blocker = blockingAncestor(key, current);
    if (blocker) throw new Conflict(`Switch on ${blocker} first.`);
  }
  const before = new Map(featureStates(current).map((f) => [f.key, f]));
  const now = w.now;
  const row = await em.findOne(FeatureSwitch, { key });
  if (row) {
    row.enabled = enabled;
    row.updatedAt = now;
  } else em.create(FeatureSwitch, { key, enabled, updatedAt: now });
  current.set(key, enabled);
  await em.flush();
  const after = featureStates(current);
  for (const f of after) {
    const was = before.get(f.key)!;
    if (was.enabled === f.enabled && was.effective === f.effective) continue;
    const previous = { enabled: was.enabled, effective: was.effective };
    emit(w, f.effective ? 'feature.enabled' : 'feature.disabled', { type: 'feature', id: f.key }, f, previous);
  }
  return after.find((f) => f.key === key)!;
}
