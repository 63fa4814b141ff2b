import { defineEntity, p, type FilterQuery } from '@mikro-orm/core';
import type { ZodType } from 'zod';
import { parseBatchRecords } from './ingest';
import { defineConsumer, type ConsumerDef } from './consumers';
import { sqlQuery, type EntityManager } from './db';
import { OutOfReach, ServiceUnavailable } from './errors';
import type { ReachSet } from './auth';
import { sqlList } from './sql';
import { readThroughReplica, type ReadThroughAnswer } from './read-through';
import { locationReplica, ORG_UNIT_REPLICA, type OrgUnitReplicaRow } from './replica-entities';
import type { ServiceClient } from './service-client';

/**
 * An area service's replica of the organization: `<schema>.locations` (time zone, business-day
 * cut-off, externalId, status, org unit) and `<schema>.org_units` (the tree), fed by organization's
 * events, so reads resolve locations and org-unit reach without calling organization. Writes never
 * refuse on the replica's lag: a location it lacks, a status that decides the answer, and a writer's
 * reach by org unit are read through from organization (`locationReadThrough`, see read-through.ts).
 * The service's own migration creates the tables (`orgReplicaTablesSql`); the kit keeps them.
 */
export function orgReplicaTablesSql(schema: string): string[] {
  return [
    `create table "${schema}"."locations" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "timezone" varchar(64) not null,
      "business_day_cutoff" varchar(5) not null,
      "status" varchar(20) not null,
      "org_unit_id" varchar(40) null,
      "updated_at" timestamptz not null
    )`,
    `create unique index "locations_external_id_uq" on "${schema}"."locations" ("external_id") where "external_id" is not null`,
    `create index "locations_org_unit_idx" on "${schema}"."locations" ("org_unit_id")`,
    `create table "${schema}"."org_units" (
      "id" varchar(40) primary key,
      "parent_id" varchar(40) null,
      "status" varchar(20) not null,
      "updated_at" timestamptz not null
    )`,
    `create index "org_units_parent_idx" on "${schema}"."org_units" ("parent_id")`,
  ];
}

/**
 * The MikroORM entity of `<schema>.locations` (named per service, e.g. `SalesLocation`); the service's
 * ORM gets the kit's entity of `<schema>.org_units` with it.
 */
export function locationReplicaEntity<N extends string>(name: N, schema?: string) {
  return locationReplica(defineEntity({
    name,
    // without a schema: the ORM's default, the service's own
    ...(schema ? { schema } : {}),
    tableName: 'locations',
    properties: {
      id: p.string().primary(),
      externalId: p.string().nullable(),
      timezone: p.string(),
      businessDayCutoff: p.string(),
      status: p.string(),
      orgUnitId: p.string().nullable(),
      updatedAt: p.datetime(),
    },
  }));
}


/** A location as organization's internal read answers it (contracts: `ReplicatedLocation`). */
export interface OwnedLocation {
  id: string;
  externalId: string | null;
  timezone: string;
  businessDayCutoff: string;
  status: string;
  orgUnitId: string | null;
  updatedAt: string;
}

/**
 * Writes locations into `<schema>.locations`, each only over an older state. An externalId is unique
 * at organization, so an older replica row still holding the externalId a newer state claims lets go
 * of it (events of two locations may arrive in either order).
 */
async function upsertLocations(em: EntityManager, schema: string, rows: OwnedLocation[]): Promise<void> {
  // raw SQL (bench:sql kit.upsert-locations): 14,916 µs against 52,433 through the ORM (3.5×: the query
  // builder's insert … onConflict().merge().where() and nativeUpdate build each statement anew)
  for (const o of rows) {
    const updatedAt = new Date(o.updatedAt);
    if (o.externalId) {
      await em.execute(`update "${schema}"."locations" set "external_id" = null where "external_id" = ? and "id" <> ? and "updated_at" <= ?`, [o.externalId, o.id, updatedAt]);
    }
    await em.execute(
      `insert into "${schema}"."locations" ("id", "external_id", "timezone", "business_day_cutoff", "status", "org_unit_id", "updated_at")
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict ("id") do update set
         "external_id" = excluded."external_id", "timezone" = excluded."timezone", "org_unit_id" = excluded."org_unit_id",
         "business_day_cutoff" = excluded."business_day_cutoff", "status" = excluded."status", "updated_at" = excluded."updated_at"
       where "locations"."updated_at" <= excluded."updated_at"`,
      [o.id, o.externalId, o.timezone, o.businessDayCutoff, o.status, o.orgUnitId, updatedAt],
    );
  }
}

/** The read-through of every service's location replica: organization's `POST /internal/locations:resolve`. */
export const locationReadThrough = readThroughReplica<{ ids: string[]; externalIds: string[]; orgUnitIds?: string[] }, OwnedLocation>({
  owner: 'organization',
  path: '/internal/locations:resolve',
  what: 'resolve locations',
  rows: (answer) => (answer as { data: OwnedLocation[] }).data,
  upsert: upsertLocations,
  isEmpty: (q) => q.ids.length === 0 && q.externalIds.length === 0 && !q.orgUnitIds?.length,
});

/** The two consumers that keep `<schema>.locations` and `<schema>.org_units` (a replayed older event never overwrites a newer state). */
export function orgReplicaConsumers(schema: string): ConsumerDef[] {
  const locations = defineConsumer({
    name: 'location-replica',
    topics: ['organization'],
    types: ['location.created', 'location.updated', 'location.archived'],
    async handle({ em, event }) {
      const o = event.data.object as { id?: string; externalId?: string | null; timezone?: string; businessDayCutoff?: string; status?: string; orgUnitId?: string | null; updatedAt?: string };
      if (!o.id || !o.timezone || !o.businessDayCutoff || !o.status) {
        // a producer's bug: parked in dead_letters rather than dropped
        throw new Error(`${event.type} ${event.id}: data.object lacks id, timezone, businessDayCutoff or status`);
      }
      await locationReadThrough.upsert(em, schema, [
        { id: o.id, externalId: o.externalId ?? null, timezone: o.timezone, businessDayCutoff: o.businessDayCutoff, status: o.status, orgUnitId: o.orgUnitId ?? null, updatedAt: o.updatedAt ?? event.createdAt },
      ]);
    },
  });
  const orgUnits = defineConsumer({
    name: 'org-unit-replica',
    topics: ['organization'],
    types: ['org_unit.created', 'org_unit.updated', 'org_unit.archived'],
    async handle({ em, event }) {
      const o = event.data.object as { id?: string; parentId?: string | null; status?: string; updatedAt?: string };
      if (!o.id || !o.status) throw new Error(`${event.type} ${event.id}: data.object lacks id or status`);
      const updatedAt = new Date(o.updatedAt ?? event.createdAt);
      // the service's own schema (the kit's entity of its org_units), never over a newer state
      await em
        .createQueryBuilder<OrgUnitReplicaRow>(ORG_UNIT_REPLICA)
        .insert({ id: o.id, parentId: o.parentId ?? null, status: o.status, updatedAt })
        .onConflict('id')
        .merge(['parentId', 'status', 'updatedAt'])
        .where({ updatedAt: { $lte: updatedAt } })
        .execute();
    },
  });
  return [locations, orgUnits];
}

/**
 * For `createService({ locationsInOrgUnits })`: the locations in these org units or any unit below them
 * (archived units still hold theirs). With `current` (a write) organization answers, so a location
 * just created in (or moved into) a unit of the reach is reached at once; from the replica when it
 * cannot be asked, and for reads.
 */
export function locationsInOrgUnitsOf(schema: string): (on: Pick<ReplicaAccess, 'em' | 'services'>, orgUnitIds: string[], opts?: { current?: boolean }) => Promise<string[]> {
  return async ({ em, services }, orgUnitIds, opts = {}) => {
    if (opts.current) {
      // the answer decides the reach only; the locations the write names are kept by resolveLocations
      const answer = await locationReadThrough.read(em, schema, { ids: [], externalIds: [], orgUnitIds }, () => false, services);
      if (answer.status === 'answered') return answer.rows.map((l) => l.id);
    }
    // raw SQL (bench:sql kit.locations-in-org-units): 713 µs against 2,345 through the ORM (3.3×: the tree
    // walked one level a query; 1,174 against 6,849, 5.8×, in a first run)
    const rows = await sqlQuery<{ id: string }>(
      em,
      `with recursive units as (
         select u."id" from "${schema}"."org_units" u where u."id" = any(?::text[])
         union
         select c."id" from "${schema}"."org_units" c join units p on c."parent_id" = p."id"
       )
       select l."id" from "${schema}"."locations" l where l."org_unit_id" in (select "id" from units)`,
      [sqlList(orgUnitIds)],
    );
    return rows.map((r) => r.id);
  };
}

/**
 * The location ids a reach covers; null = all. Org-unit reach arrives resolved to its locations by
 * the kit (a service with `locationsInOrgUnits`). Lists and gets of location-bound records filter
 * through this.
 */
export function reachableLocationIds(reach: ReachSet): string[] | null {
  if (reach.everyone) return null;
  // never guess: unresolved org units (a service without the replica) are refused
  if (reach.orgUnitIds.size > 0 && !reach.orgUnitsResolved) throw new OutOfReach('This reach by org unit could not be resolved to locations.');
  return [...reach.locationIds];
}

/** Refuses (403 out_of_reach) a location the reach does not cover. */
export function assertLocationInReach(reach: ReachSet, locationId: string): void {
  const ids = reachableLocationIds(reach);
  if (ids && !ids.includes(locationId)) throw new OutOfReach(`Your permission does not reach location ${locationId}.${employeeSetNote(reach)}`);
}

/** What an employee set reaches, said where it does not reach a location. */
const employeeSetNote = (reach: ReachSet) =>
  !reach.everyone && reach.employeeSetIds.size > 0 ? ' An employee set reaches the records of its employees, not a location as a whole.' : '';

/**
 * Does the reach cover a record about an employee: Everyone, one of the record's locations (for an
 * employee: the home location and any further one), or its employee in one of the reach's employee
 * sets (a set's ids are employee ids). A record about no one (`employeeId` null: an open shift) is
 * covered by its location only.
 */
export function reachCoversEmployeeRecord(reach: ReachSet, r: { locationIds: readonly string[]; employeeId: string | null | undefined }): boolean {
  if (reach.everyone) return true;
  if (r.employeeId && reach.employeeSetIds.has(r.employeeId)) return true;
  reachableLocationIds(reach); // refuses an org-unit reach not resolved to locations
  return r.locationIds.some((id) => reach.locationIds.has(id));
}

/** Refuses (403 out_of_reach) a record about an employee that the reach covers neither by its location nor by its employee. */
export function assertEmployeeRecordInReach(reach: ReachSet, locationId: string, employeeId: string | null | undefined): void {
  if (reachCoversEmployeeRecord(reach, { locationIds: [locationId], employeeId })) return;
  throw new OutOfReach(employeeId ? `Your permission reaches neither location ${locationId} nor employee ${employeeId}.` : `Your permission does not reach location ${locationId}.${employeeSetNote(reach)}`);
}

/**
 * Which records about employees a list may show (employeeRecordScope): those at `location`, those about
 * `employee`, both together (`all`: the location asked for, of the reach's employees) or either (`any`).
 */
export interface EmployeeRecordScope {
  location?: string | { $in: string[] };
  employee?: { $in: string[] };
  match: 'all' | 'any';
}

/**
 * The scope of a list of records about employees: the `locationId` asked for when the reach covers it,
 * or the records there of the reach's employee sets (403 when it has none); without one, the
 * locations the reach covers and its employee sets' employees; undefined for Everyone.
 */
export function employeeRecordScope(reach: ReachSet, locationId: string | undefined): EmployeeRecordScope | undefined {
  const reachable = reachableLocationIds(reach);
  if (reach.everyone || reachable === null) return locationId ? { location: locationId, match: 'all' } : undefined;
  const employees = reach.employeeSetIds.size > 0 ? { $in: [...reach.employeeSetIds] } : undefined;
  if (locationId) {
    if (reachable.includes(locationId)) return { location: locationId, match: 'all' };
    if (!employees) throw new OutOfReach(`Your permission does not reach location ${locationId}.`);
    return { location: locationId, employee: employees, match: 'all' };
  }
  return { location: { $in: reachable }, employee: employees, match: 'any' };
}

/**
 * The location part of an employee record scope for records of employees themselves (the people
 * service's employees, a service's replica of them): their home location or a further one.
 */
export function atEmployeeLocations(ids: string | { $in: string[] }): { $or: [{ homeLocationId: string | { $in: string[] } }, { locationIds: { $contains: string[] } | { $overlap: string[] } }] } {
  return { $or: [{ homeLocationId: ids }, { locationIds: typeof ids === 'string' ? { $contains: [ids] } : { $overlap: ids.$in } }] };
}

/** An employee record scope as one condition of a query, the fields named by the caller's store (undefined: no condition). */
export function employeeScopeCondition<E>(
  scope: EmployeeRecordScope | undefined,
  by: { location: (ids: string | { $in: string[] }) => FilterQuery<E>; employee: (ids: { $in: string[] }) => FilterQuery<E> },
): FilterQuery<E> | undefined {
  if (!scope) return undefined;
  const parts = [scope.location !== undefined ? by.location(scope.location) : null, scope.employee !== undefined ? by.employee(scope.employee) : null].filter((c) => c !== null);
  if (parts.length === 1) return parts[0];
  return (scope.match === 'all' ? { $and: parts } : { $or: parts }) as FilterQuery<E>;
}

/** Refuses (403 out_of_reach) a reach short of Everyone for company-wide records (`what`: "Customers", "Items" …). */
export function assertCompanyWide(reach: ReachSet, what: string): void {
  if (!reach.everyone) throw new OutOfReach(`${what} are company-wide: the permission needs reach Everyone.`);
}

/** A location a new record names: its id, the body field naming it (`locationId`, `toLocationId` …), and what it would take ("counts", "orders"). */
type LocationInput = { locationId?: string; locationExternalId?: string };

/**
 * What a replica helper reads with: a unit of work (its em, its service's schema, and the client its
 * read-through asks the owner with, bound at start-up) or the same three parts.
 */
export interface ReplicaAccess {
  em: EntityManager;
  schema: string;
  services: ServiceClient;
}

export interface ReplicaLocationRef {
  id: string;
  path: string;
  takes: string;
}

/**
 * Field errors for locations a new record names: unknown, or archived (supplement: an archived
 * location takes no new counts or orders). The decision follows organization's current state (one
 * read-through call for all the refs), not the replica alone: a location answered by organization is
 * accepted and an archive it answered is refused at once (read-your-writes across services).
 */
export async function replicaLocationErrors(on: ReplicaAccess, refs: ReplicaLocationRef[]): Promise<Array<{ path: string; message: string }>> {
  return (await writableLocations(on, refs)).errors;
}

/** `replicaLocationErrors` with the locations themselves (time zone, cut-off) of the refs that passed. */
export async function writableLocations(on: ReplicaAccess, refs: ReplicaLocationRef[]): Promise<WritableLocations> {
  const map = await resolveLocations(on, refs.map((r) => ({ locationId: r.id })), { current: true });
  const errors: Array<{ path: string; message: string }> = [];
  const byId = new Map<string, ReplicaLocation>();
  for (const r of refs) {
    const location = map.byId.get(r.id);
    if (location === undefined) errors.push({ path: r.path, message: `No location ${r.id}.` });
    else if (location.status !== 'active') errors.push({ path: r.path, message: `Location ${r.id} is ${location.status}; it takes no new ${r.takes}.` });
    else byId.set(r.id, location);
  }
  return { errors, byId };
}

export interface WritableLocations {
  errors: Array<{ path: string; message: string }>;
  byId: Map<string, ReplicaLocation>;
}

/** A location of a service's replica as ingestion needs it (business-day assignment, archived warning). */
export interface ReplicaLocation {
  id: string;
  externalId: string | null;
  timezone: string;
  businessDayCutoff: string;
  status: string;
}

export interface LocationMap {
  byId: Map<string, ReplicaLocation>;
  byExternalId: Map<string, ReplicaLocation>;
}

export interface ResolveLocationsOptions {
  /**
   * The answer depends on the locations' state (an archived location is refused): organization is
   * asked for every location named, not only the replica's misses, and its answer decides. Without
   * it the replica answers and only its misses are read through (ingestion: an archived location
   * still takes records, with a warning).
   */
  current?: boolean;
}

/**
 * Loads every location the inputs name (spec: ingestion rule 2 — by id or by externalId) from
 * `<schema>.locations` in one query, then reads through from organization (one call) what the replica
 * cannot answer for sure: its misses, or with `current` every location named. What organization answers
 * is upserted into the replica. Organization unreachable: the replica decides when it knows every
 * location named (availability), else 503 `service_unavailable` (never a refusal it cannot vouch for);
 * no way to reach organization configured (a service run alone): the replica decides.
 */
export async function resolveLocations(on: ReplicaAccess, inputs: Iterable<LocationInput>, opts: ResolveLocationsOptions = {}): Promise<LocationMap> {
  const { em, schema, services } = on;
  const ids = new Set<string>();
  const externalIds = new Set<string>();
  for (const i of inputs) {
    if (i.locationId) ids.add(i.locationId);
    if (i.locationExternalId) externalIds.add(i.locationExternalId);
  }
  const map: LocationMap = { byId: new Map(), byExternalId: new Map() };
  if (ids.size === 0 && externalIds.size === 0) return map;
  // raw SQL (bench:sql kit.resolve-locations): 557 µs against 999 through the ORM (1.8×: the query builder's
  // statement and mapping for a batch's 20 locations; 2.0× and 1.7× in two runs before)
  const rows = await sqlQuery<{ id: string; external_id: string | null; timezone: string; business_day_cutoff: string; status: string; updated_at: Date }>(
    em,
    `select "id", "external_id", "timezone", "business_day_cutoff", "status", "updated_at" from "${schema}"."locations"
     where "id" = any(?::text[]) or "external_id" = any(?::text[])`,
    [sqlList([...ids]), sqlList([...externalIds])],
  );
  const replicated = new Map<string, number>();
  for (const r of rows) {
    const loc: ReplicaLocation = { id: r.id, externalId: r.external_id, timezone: r.timezone, businessDayCutoff: r.business_day_cutoff, status: r.status };
    map.byId.set(loc.id, loc);
    if (loc.externalId) map.byExternalId.set(loc.externalId, loc);
    replicated.set(r.id, new Date(r.updated_at).getTime());
  }
  const ask = {
    ids: [...ids].filter((id) => opts.current || !map.byId.has(id)),
    externalIds: [...externalIds].filter((x) => opts.current || !map.byExternalId.has(x)),
  };
  const answer: ReadThroughAnswer<OwnedLocation> = await locationReadThrough.read(em, schema, ask, (o) => (replicated.get(o.id) ?? -Infinity) < Date.parse(o.updatedAt), services);
  if (answer.status === 'answered') {
    // organization's answer replaces the replica's for every name asked (absent = no such location)
    for (const id of ask.ids) map.byId.delete(id);
    for (const x of ask.externalIds) map.byExternalId.delete(x);
    for (const o of answer.rows) {
      const loc: ReplicaLocation = { id: o.id, externalId: o.externalId, timezone: o.timezone, businessDayCutoff: o.businessDayCutoff, status: o.status };
      map.byId.set(loc.id, loc);
      if (loc.externalId) map.byExternalId.set(loc.externalId, loc);
    }
  } else if (answer.status === 'unreachable' && (ask.ids.some((id) => !map.byId.has(id)) || ask.externalIds.some((x) => !map.byExternalId.has(x)))) {
    throw new ServiceUnavailable(`A location named here is not known to ${schema} yet and organization could not be asked (${answer.detail}); retry later.`);
  }
  return map;
}

/**
 * The location of one record, or its field error. An archived location still takes records (history
 * and backfill refer to it, spec: ingestion rule 10) with a warning.
 */
export function locationFor(
  map: LocationMap,
  input: { locationId?: string; locationExternalId?: string },
): { location: ReplicaLocation; warnings: Array<{ path: string; message: string }> } | { error: { path: string; message: string } } {
  const location = input.locationId !== undefined ? map.byId.get(input.locationId) : map.byExternalId.get(input.locationExternalId ?? '');
  if (!location) {
    return input.locationId !== undefined
      ? { error: { path: 'locationId', message: `No location ${input.locationId}.` } }
      : { error: { path: 'locationExternalId', message: `No location with externalId ${input.locationExternalId}.` } };
  }
  const path = input.locationId !== undefined ? 'locationId' : 'locationExternalId';
  const warnings = location.status === 'archived' ? [{ path, message: `Location ${location.id} is archived.` }] : [];
  return { location, warnings };
}

/** Each parsed record of a batch with its location (one query for the batch): `location` and `warnings`, or `error`; nothing for records that did not parse. */
export async function locateRecords<T extends LocationInput>(on: ReplicaAccess, parsed: Array<{ data?: T }>): Promise<Array<ReturnType<typeof locationFor> | null>> {
  const map = await resolveLocations(on, parsed.flatMap((p) => (p.data ? [p.data] : [])));
  return parsed.map((p) => (p.data ? locationFor(map, p.data) : null));
}

/** A batch record parsed (spec: Batch result) and located: `data` and `location` when both succeeded, else its `errors`. */
export interface LocatedRecord<T> {
  index: number;
  externalId: string | null;
  data?: T;
  location?: ReplicaLocation;
  errors: Array<{ path: string; message: string }>;
  warnings: Array<{ path: string; message: string }>;
}

/** Each record of a batch parsed with `schema` on its own and located in `<schema>.locations` (one query for the batch). */
export async function parseLocatedRecords<T extends LocationInput>(on: ReplicaAccess, schema: ZodType<T>, records: unknown[]): Promise<Array<LocatedRecord<T>>> {
  const parsed = parseBatchRecords(schema, records);
  const located = await locateRecords(on, parsed);
  return parsed.map((p, index) => {
    const r: LocatedRecord<T> = { index, externalId: p.externalId, errors: p.errors, warnings: [] };
    const at = located[index];
    if (!p.data || !at) return r;
    if ('error' in at) {
      r.errors.push(at.error);
      return r;
    }
    r.warnings.push(...at.warnings);
    return { ...r, data: p.data, location: at.location };
  });
}

/**
 * The filter of a list on a location field, for MikroORM: the `locationId` asked for (403 when out of
 * reach), else the locations the reach covers, else none (undefined: every location).
 */
export function locationFilter(reach: ReachSet, locationId: string | undefined): string | { $in: string[] } | undefined {
  if (locationId) {
    assertLocationInReach(reach, locationId);
    return locationId;
  }
  const reachable = reachableLocationIds(reach);
  return reachable ? { $in: reachable } : undefined;
}
