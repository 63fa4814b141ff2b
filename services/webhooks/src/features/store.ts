import type { EntityManager } from '@bop/shared';

/** The replica of identity's feature switches (fed by the fan-out consumer). */
export async function loadFeatureStates(em: EntityManager): Promise<Map<string, boolean>> {
  const rows: Array<{ key: string; effective: boolean }> = await em.execute(`select "key", "effective" from "webhooks"."feature_states"`);
  return new Map(rows.map((r) => [r.key, r.effective]));
}

export async function saveFeatureState(em: EntityManager, key: string, enabled: boolean, effective: boolean, at: Date): Promise<void> {
  await em.execute(
    `insert into "webhooks"."feature_states" ("key", "enabled", "effective", "updated_at") values (?, ?, ?, ?)
     on conflict ("key") do update set "enabled" = excluded."enabled", "effective" = excluded."effective", "updated_at" = excluded."updated_at"`,
    [key, enabled, effective, at],
  );
}
