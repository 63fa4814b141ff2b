import { findPlain, type EntityManager } from '@bop/shared';
import { FeatureState } from './entities';

/** The replica of identity's feature switches (fed by the fan-out consumer). */
export async function loadFeatureStates(em: EntityManager): Promise<Map<string, boolean>> {
  const rows = await findPlain(em, FeatureState, {});
  return new Map(rows.map((r) => [r.key, r.effective]));
}

export async function saveFeatureState(em: EntityManager, key: string, enabled: boolean, effective: boolean, at: Date): Promise<void> {
  await em
    .createQueryBuilder(FeatureState)
    .insert({ key, enabled, effective, updatedAt: at })
    .onConflict('key')
    .merge(['enabled', 'effective', 'updatedAt'])
    .execute();
}
