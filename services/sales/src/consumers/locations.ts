import { defineConsumer } from '@bop/shared';

const LOCATION_EVENTS = ['location.created', 'location.updated', 'location.archived'];

/** Keeps `sales.locations` (time zone, cut-off, externalId, status, org unit) from organization's location events. */
export const locationReplicaConsumer = defineConsumer({
  name: 'location-replica',
  topics: ['organization'],
  types: LOCATION_EVENTS,
  async handle({ em, event }) {
    const o = event.data.object as { id?: string; externalId?: string | null; timezone?: string; businessDayCutoff?: string; status?: string; orgUnitId?: string | null; updatedAt?: string };
    if (!o.id || !o.timezone || !o.businessDayCutoff || !o.status) {
      // a producer's bug: parked in dead_letters rather than dropped
      throw new Error(`${event.type} ${event.id}: data.object lacks id, timezone, businessDayCutoff or status`);
    }
    const updatedAt = new Date(o.updatedAt ?? event.createdAt);
    // a replayed older event never overwrites a newer state
    await em.execute(
      `insert into "sales"."locations" ("id", "external_id", "timezone", "business_day_cutoff", "status", "org_unit_id", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict ("id") do update set
         "external_id" = excluded."external_id", "timezone" = excluded."timezone", "org_unit_id" = excluded."org_unit_id",
         "business_day_cutoff" = excluded."business_day_cutoff", "status" = excluded."status", "updated_at" = excluded."updated_at"
       where "locations"."updated_at" <= excluded."updated_at"`,
      [o.id, o.externalId ?? null, o.timezone, o.businessDayCutoff, o.status, o.orgUnitId ?? null, updatedAt],
    );
  },
});
