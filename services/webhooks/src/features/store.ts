import { findPlain, type Work } from '@bop/shared';
import { FeatureState } from './entities';

/** The replica of identity's feature switches (fed by the fan-out consumer). */
export async function loadFeatureStates(w: Work): Promise<Map<string, boolean>> {
  const rows = await findPlain(w.em, FeatureState, {});
  return new Map(rows.map((r) => [r.key, r.effective]));
}

/** A switch as identity's event tells it, at the unit's instant. */
export async function saveFeatureState(w: Work, key: string, enabled: boolean, effective: boolean): Promise<void> {
  await w.em
    .createQueryBuilder(FeatureState)
    .insert({ key, enabled, effective, updatedAt: w.now })
    .onConflict('key')
    .merge(['enabled', 'effective', 'updatedAt'])
    .execute();
}
