import { defineConsumer, sqlQuery, type EntityManager } from '@bop/shared';

const ORG_UNIT_EVENTS = ['org_unit.created', 'org_unit.updated', 'org_unit.archived'];

/** Keeps `sales.org_units` (the tree) from organization's events: org-unit reach resolves against it. */
export const orgUnitReplicaConsumer = defineConsumer({
  name: 'org-unit-replica',
  topics: ['organization'],
  types: ORG_UNIT_EVENTS,
  async handle({ em, event }) {
    const o = event.data.object as { id?: string; parentId?: string | null; status?: string; updatedAt?: string };
    if (!o.id || !o.status) throw new Error(`${event.type} ${event.id}: data.object lacks id or status`);
    // a replayed older event never overwrites a newer state
    await em.execute(
      `insert into "sales"."org_units" ("id", "parent_id", "status", "updated_at") values (?, ?, ?, ?)
       on conflict ("id") do update set "parent_id" = excluded."parent_id", "status" = excluded."status", "updated_at" = excluded."updated_at"
       where "org_units"."updated_at" <= excluded."updated_at"`,
      [o.id, o.parentId ?? null, o.status, new Date(o.updatedAt ?? event.createdAt)],
    );
  },
});

/** The locations in these org units or any unit below them (archived units still hold their locations). */
export async function locationsInOrgUnits(em: EntityManager, orgUnitIds: string[]): Promise<string[]> {
  const rows = await sqlQuery<{ id: string }>(
    em,
    `with recursive units as (
       select u."id" from "sales"."org_units" u where u."id" = any(array(select jsonb_array_elements_text(?::jsonb)))
       union
       select c."id" from "sales"."org_units" c join units p on c."parent_id" = p."id"
     )
     select l."id" from "sales"."locations" l where l."org_unit_id" in (select "id" from units)`,
    [JSON.stringify(orgUnitIds)],
  );
  return rows.map((r) => r.id);
}
