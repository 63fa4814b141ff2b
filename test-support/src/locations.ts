/** Locations made at organization and waited for in other services' replicas (they travel on the bus). */
import { eventually, type TestServices } from './harness';
import { sql, type SqlTarget } from './sql';

/** NYC-1: New York, business day cut-off 04:00. */
export const NYC_1 = { name: 'NYC', timezone: 'America/New_York', businessDayCutoff: '04:00', externalId: 'NYC-1' };
/** BER-1: Berlin, business day cut-off 05:00. */
export const BER_1 = { name: 'Berlin', timezone: 'Europe/Berlin', businessDayCutoff: '05:00', externalId: 'BER-1' };

/** Waits until `<service>.locations` holds every id (with `status`, when given). */
export async function untilReplicated(target: SqlTarget, service: string, ids: string[], opts: { status?: string; ms?: number } = {}): Promise<void> {
  await eventually(
    async () =>
      (await sql(target, `select 1 from "${service}".locations where id = any($1::text[]) and ($2::text is null or status = $2)`, [ids, opts.status ?? null])).length === ids.length,
    opts.ms,
  );
}

/** Creates a location at organization (201 required) and waits until each of `replicas` holds it; answers its id. */
export async function replicatedLocation(stack: TestServices, body: Record<string, unknown>, replicas: string[]): Promise<string> {
  const r = await stack.services.organization.call('POST', '/locations', { body });
  if (r.status !== 201) throw new Error(`location: ${r.status} ${JSON.stringify(r.body)}`);
  for (const service of replicas) await untilReplicated(stack, service, [r.body.id]);
  return r.body.id as string;
}

/** NYC-1 and BER-1 created at organization and replicated into each of `replicas`: ids by externalId. */
export async function standardLocations(stack: TestServices, replicas: string[]): Promise<Record<string, string>> {
  const locations: Record<string, string> = {};
  for (const body of [NYC_1, BER_1]) {
    const r = await stack.services.organization.call('POST', '/locations', { body });
    if (r.status !== 201) throw new Error(`location ${body.externalId}: ${r.status} ${JSON.stringify(r.body)}`);
    locations[body.externalId] = r.body.id;
  }
  for (const service of replicas) await untilReplicated(stack, service, Object.values(locations));
  return locations;
}
