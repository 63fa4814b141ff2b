import { defineEntity, p } from '@mikro-orm/core';
import type { ReplicatedPayRate, ResolvedEmployee } from '@bop/contracts';
import { defineConsumer, type ConsumerDef } from './consumers';
import { sqlQuery, type EntityManager } from './db';
import { ServiceUnavailable } from './errors';
import { sqlList } from './sql';
import { readThroughReplica, type ReadThroughAnswer } from './read-through';
import { employeeReplica, PAY_RATE_REPLICA, type PayRateReplicaRow } from './replica-entities';
import type { ReplicaAccess } from './org-replica';

/**
 * An area service's replica of people's employees (`<schema>.employees`) and their pay rates
 * (`<schema>.pay_rates`), fed by people's `employee.*` and `pay_rate.changed` events, so that time and
 * scheduling resolve the employee a record names, its locations, positions and termination, and the
 * rate in force on a day, without calling people. Like the organization replica, a write never refuses
 * on the replica's lag: an employee it lacks, or one it would refuse, is read through from people's
 * `POST /internal/employees:resolve` first (`resolveEmployees`). The service's migration creates the
 * tables (`employeeReplicaTablesSql`); the kit keeps them.
 */
export function employeeReplicaTablesSql(schema: string): string[] {
  return [
    `create table "${schema}"."employees" (
      "id" varchar(40) primary key,
      "external_id" varchar(200) null,
      "employee_number" varchar(40) null,
      "first_name" varchar(200) not null,
      "last_name" varchar(200) not null,
      "status" varchar(20) not null,
      "home_location_id" varchar(40) not null,
      "location_ids" text[] not null,
      "department_id" varchar(64) null,
      "positions" text[] not null,
      "hire_date" date not null,
      "termination_date" date null,
      "user_id" varchar(40) null,
      "version" integer not null,
      "updated_at" timestamptz not null
    )`,
    `create unique index "employees_external_id_uq" on "${schema}"."employees" ("external_id") where "external_id" is not null`,
    `create index "employees_home_location_idx" on "${schema}"."employees" ("home_location_id")`,
    `create index "employees_user_idx" on "${schema}"."employees" ("user_id") where "user_id" is not null`,
    `create table "${schema}"."pay_rates" (
      "id" varchar(40) primary key,
      "employee_id" varchar(40) not null,
      "type" varchar(10) not null,
      "amount" numeric(16,4) not null,
      "position" varchar(100) null,
      "effective_date" date not null
    )`,
    `create index "pay_rates_employee_idx" on "${schema}"."pay_rates" ("employee_id", "effective_date")`,
  ];
}

/**
 * The MikroORM entity of `<schema>.employees` (named per service, e.g. `TimeEmployee`); the service's
 * ORM gets the kit's entity of `<schema>.pay_rates` with it.
 */
export function employeeReplicaEntity<N extends string>(name: N, schema?: string) {
  return employeeReplica(defineEntity({
    name,
    // without a schema: the ORM's default, the service's own
    ...(schema ? { schema } : {}),
    tableName: 'employees',
    properties: {
      id: p.string().primary(),
      externalId: p.string().nullable(),
      employeeNumber: p.string().nullable(),
      firstName: p.string(),
      lastName: p.string(),
      status: p.string(),
      homeLocationId: p.string(),
      locationIds: p.array().$type<string[]>(),
      departmentId: p.string().nullable(),
      positions: p.array().$type<string[]>(),
      hireDate: p.string().columnType('date'),
      terminationDate: p.string().columnType('date').nullable(),
      userId: p.string().nullable(),
      version: p.integer(),
      updatedAt: p.datetime(),
    },
  }));
}

/** An employee as the replica holds it (without pay rates). */
export type ReplicaEmployee = Omit<ResolvedEmployee, 'payRates' | 'updatedAt'>;

/**
 * Writes employees (each only over an older version) and, when their rates came with them, their pay
 * rates, into `<schema>`. An externalId is unique at people, so an older replica row still holding the
 * externalId a newer state claims lets go of it.
 */
async function upsertEmployees(em: EntityManager, schema: string, rows: Array<Omit<ResolvedEmployee, 'payRates'> & { payRates?: ReplicatedPayRate[] }>): Promise<void> {
  if (rows.length === 0) return;
  // one statement per step for the whole answer (a batch of punches may read through a thousand employees)
  const payload = JSON.stringify(
    rows.map((e) => ({
      id: e.id,
      external_id: e.externalId,
      employee_number: e.employeeNumber,
      first_name: e.firstName,
      last_name: e.lastName,
      status: e.status,
      home_location_id: e.homeLocationId,
      location_ids: e.locationIds,
      department_id: e.departmentId,
      positions: e.positions,
      hire_date: e.hireDate,
      termination_date: e.terminationDate,
      user_id: e.userId,
      version: e.version,
      updated_at: e.updatedAt,
    })),
  );
  const x = `jsonb_to_recordset(?::jsonb) as x("id" text, "external_id" text, "employee_number" text, "first_name" text, "last_name" text, "status" text,
    "home_location_id" text, "location_ids" jsonb, "department_id" text, "positions" jsonb, "hire_date" date, "termination_date" date, "user_id" text,
    "version" int, "updated_at" timestamptz)`;
  // raw SQL (bench:sql kit.upsert-employees): 167,475 µs against 603,935 through the ORM (3.6×: loading the
  // answer's rows locked, changing and creating entities and flushing them, each row compared in code)
  await sqlQuery(em, 
    `update "${schema}"."employees" r set "external_id" = null from ${x}
     where x."external_id" is not null and r."external_id" = x."external_id" and r."id" <> x."id" and r."updated_at" <= x."updated_at"`,
    [payload],
  );
  await sqlQuery(em, 
    `insert into "${schema}"."employees" ("id", "external_id", "employee_number", "first_name", "last_name", "status", "home_location_id", "location_ids",
       "department_id", "positions", "hire_date", "termination_date", "user_id", "version", "updated_at")
     select x."id", x."external_id", x."employee_number", x."first_name", x."last_name", x."status", x."home_location_id",
       array(select jsonb_array_elements_text(x."location_ids")), x."department_id", array(select jsonb_array_elements_text(x."positions")),
       x."hire_date", x."termination_date", x."user_id", x."version", x."updated_at"
     from ${x} order by x."id"
     on conflict ("id") do update set
       "external_id" = excluded."external_id", "employee_number" = excluded."employee_number", "first_name" = excluded."first_name",
       "last_name" = excluded."last_name", "status" = excluded."status", "home_location_id" = excluded."home_location_id",
       "location_ids" = excluded."location_ids", "department_id" = excluded."department_id", "positions" = excluded."positions",
       "hire_date" = excluded."hire_date", "termination_date" = excluded."termination_date", "user_id" = excluded."user_id",
       "version" = excluded."version", "updated_at" = excluded."updated_at"
     where "employees"."version" <= excluded."version"`,
    [payload],
  );
  // the rates that came with them, of every employee of the answer in one statement
  await upsertPayRates(em, schema, rows.flatMap((e) => (e.payRates ?? []).map((r) => ({ ...r, employeeId: e.id }))));
}

/** Rates are never changed at people, only added: an id already held is kept as it is. */
async function upsertPayRates(em: EntityManager, schema: string, rates: Array<ReplicatedPayRate & { employeeId: string }>): Promise<void> {
  if (rates.length === 0) return;
  // raw SQL (bench:sql kit.upsert-employees): the rates of the answer's employees, measured with them
  await sqlQuery(em, 
    `insert into "${schema}"."pay_rates" ("id", "employee_id", "type", "amount", "position", "effective_date")
     select x."id", x."employee_id", x."type", x."amount"::numeric, x."position", x."effective_date"::date
     from jsonb_to_recordset(?::jsonb) as x("id" text, "employee_id" text, "type" text, "amount" text, "position" text, "effective_date" text)
     on conflict ("id") do nothing`,
    [JSON.stringify(rates.map((r) => ({ id: r.id, employee_id: r.employeeId, type: r.type, amount: r.amount, position: r.position, effective_date: r.effectiveDate })))],
  );
}

/** The read-through of every service's employee replica: people's `POST /internal/employees:resolve`. */
export const employeeReadThrough = readThroughReplica<{ ids: string[]; externalIds: string[]; payRates?: boolean; known?: Array<{ id: string; version: number }> }, ResolvedEmployee>({
  owner: 'people',
  path: '/internal/employees:resolve',
  what: 'resolve employees',
  rows: (answer) => (answer as { data: ResolvedEmployee[] }).data,
  current: (answer) => (answer as { current?: string[] }).current ?? [],
  upsert: upsertEmployees,
  isEmpty: (q) => q.ids.length === 0 && q.externalIds.length === 0,
});

/** The employee object of people's events, checked for what the replica keeps. */
function employeeFromEvent(event: { id: string; type: string; createdAt: string; data: { object: unknown } }): Omit<ResolvedEmployee, 'payRates'> {
  const o = event.data.object as Record<string, any> | null;
  if (!o || typeof o.id !== 'string' || typeof o.status !== 'string' || typeof o.homeLocationId !== 'string' || typeof o.version !== 'number' || !Array.isArray(o.locationIds)) {
    // a producer's bug: parked in dead_letters rather than dropped
    throw new Error(`${event.type} ${event.id}: data.object is not an employee (id, status, homeLocationId, locationIds, version)`);
  }
  return {
    id: o.id,
    externalId: o.externalId ?? null,
    employeeNumber: o.employeeNumber ?? null,
    firstName: o.preferredName ?? o.legalFirstName ?? '',
    lastName: o.legalLastName ?? '',
    status: o.status,
    homeLocationId: o.homeLocationId,
    locationIds: o.locationIds,
    departmentId: o.departmentId ?? null,
    positions: Array.isArray(o.positions) ? o.positions : [],
    hireDate: o.hireDate,
    terminationDate: o.terminationDate ?? null,
    userId: o.userId ?? null,
    version: o.version,
    updatedAt: o.updatedAt ?? event.createdAt,
  };
}

/** The consumers that keep `<schema>.employees` and `<schema>.pay_rates` (a replayed older event never overwrites a newer state). */
export function employeeReplicaConsumers(schema: string): ConsumerDef[] {
  const employees = defineConsumer({
    name: 'employee-replica',
    topics: ['people'],
    types: ['employee.created', 'employee.updated', 'employee.transferred', 'employee.terminated', 'employee.archived'],
    async handle({ em, event }) {
      await upsertEmployees(em, schema, [employeeFromEvent(event)]);
    },
  });
  const rates = defineConsumer({
    name: 'pay-rate-replica',
    topics: ['people'],
    types: ['pay_rate.changed'],
    async handle({ em, event }) {
      const o = event.data.object as Partial<ReplicatedPayRate> & { employeeId?: string };
      if (!o?.id || !o.employeeId || !o.type || !o.amount || !o.effectiveDate) throw new Error(`${event.type} ${event.id}: data.object is not a pay rate`);
      await upsertPayRates(em, schema, [{ id: o.id, employeeId: o.employeeId, type: o.type, amount: o.amount, position: o.position ?? null, effectiveDate: o.effectiveDate }]);
    },
  });
  return [employees, rates];
}

export interface EmployeeMap {
  byId: Map<string, ReplicaEmployee>;
  byExternalId: Map<string, ReplicaEmployee>;
}

interface EmployeeRow {
  id: string;
  external_id: string | null;
  employee_number: string | null;
  first_name: string;
  last_name: string;
  status: string;
  home_location_id: string;
  location_ids: string[];
  department_id: string | null;
  positions: string[];
  hire_date: string;
  termination_date: string | null;
  user_id: string | null;
  version: number;
}

const EMPLOYEE_COLUMNS = `"id", "external_id", "employee_number", "first_name", "last_name", "status", "home_location_id", "location_ids", "department_id", "positions",
  to_char("hire_date", 'YYYY-MM-DD') as "hire_date", to_char("termination_date", 'YYYY-MM-DD') as "termination_date", "user_id", "version"`;

const fromRow = (r: EmployeeRow): ReplicaEmployee => ({
  id: r.id,
  externalId: r.external_id,
  employeeNumber: r.employee_number,
  firstName: r.first_name,
  lastName: r.last_name,
  status: r.status,
  homeLocationId: r.home_location_id,
  locationIds: r.location_ids,
  departmentId: r.department_id,
  positions: r.positions,
  hireDate: r.hire_date,
  terminationDate: r.termination_date,
  userId: r.user_id,
  version: r.version,
});

export interface ResolveEmployeesOptions {
  /**
   * The answer depends on the employees' current state (a termination refuses a punch): people is
   * asked for every employee named, not only the replica's misses, and its answer decides
   * (read-your-writes: a termination answered a moment ago counts). People unreachable: the replica
   * decides where it knows the employee (availability).
   */
  current?: boolean;
  /** without `current`: the replica's employees to ask people about anyway (those it would refuse) */
  doubt?: (e: ReplicaEmployee) => boolean;
  /** whether people's answer carries the pay rates (into the replica); default true */
  payRates?: boolean;
}

type EmployeeInput = { employeeId?: string; employeeExternalId?: string };

/**
 * Loads every employee the inputs name (by id or externalId) from `<schema>.employees` in one query,
 * then reads through from people (one call) those the replica lacks, those `doubt` says the replica
 * would refuse, or with `current` all of them: people's answer decides and is upserted. People
 * unreachable: the replica decides where it knows the employee, else 503 (never a refusal it cannot
 * vouch for); no way to people configured (a service run alone): the replica decides.
 */
export async function resolveEmployees(on: ReplicaAccess, inputs: Iterable<EmployeeInput>, opts: ResolveEmployeesOptions = {}): Promise<EmployeeMap> {
  const { em, schema, services } = on;
  const doubt = opts.current ? () => true : (opts.doubt ?? (() => false));
  const ids = new Set<string>();
  const externalIds = new Set<string>();
  for (const i of inputs) {
    if (i.employeeId) ids.add(i.employeeId);
    if (i.employeeExternalId) externalIds.add(i.employeeExternalId);
  }
  const map: EmployeeMap = { byId: new Map(), byExternalId: new Map() };
  if (ids.size === 0 && externalIds.size === 0) return map;
  // raw SQL (bench:sql kit.resolve-employees): 13,025 µs against 25,262 through the ORM (1.9×: the query
  // builder's mapping of 1,000 rows and their arrays; 25,089 against 41,322, 1.6×, in a first run)
  const rows = await sqlQuery<EmployeeRow>(em, `select ${EMPLOYEE_COLUMNS} from "${schema}"."employees" where "id" = any(?::text[]) or "external_id" = any(?::text[])`, [
    sqlList([...ids]),
    sqlList([...externalIds]),
  ]);
  const versions = new Map<string, number>();
  const doubted = new Set<string>();
  for (const r of rows) {
    const e = fromRow(r);
    map.byId.set(e.id, e);
    if (e.externalId) map.byExternalId.set(e.externalId, e);
    versions.set(e.id, e.version);
    if (doubt(e)) doubted.add(e.id);
  }
  const ask = {
    ids: [...ids].filter((id) => !map.byId.has(id) || doubted.has(id)),
    externalIds: [...externalIds].filter((x) => !map.byExternalId.has(x) || doubted.has(map.byExternalId.get(x)!.id)),
  };
  // the replica's versions of those asked: people answers whole only the ones that changed since
  const known = [...doubted].map((id) => ({ id, version: versions.get(id)! }));
  const held = new Map([...doubted].map((id) => [id, map.byId.get(id)!]));
  const answer: ReadThroughAnswer<ResolvedEmployee> = await employeeReadThrough.read(
    em,
    schema,
    { ...ask, payRates: opts.payRates ?? true, ...(known.length > 0 ? { known } : {}) },
    (o) => (versions.get(o.id) ?? -Infinity) < o.version,
    services,
  );
  if (answer.status === 'answered') {
    // people's answer replaces the replica's for every name asked (absent = no such employee; in
    // `current` = the replica's row is people's current state)
    for (const id of ask.ids) map.byId.delete(id);
    for (const x of ask.externalIds) map.byExternalId.delete(x);
    for (const id of answer.current) {
      const e = held.get(id);
      if (!e) continue;
      map.byId.set(e.id, e);
      if (e.externalId) map.byExternalId.set(e.externalId, e);
    }
    for (const o of answer.rows) {
      const { payRates: _rates, updatedAt: _at, ...e } = o;
      map.byId.set(e.id, e);
      if (e.externalId) map.byExternalId.set(e.externalId, e);
    }
  } else if (answer.status === 'unreachable' && (ask.ids.some((id) => !map.byId.has(id)) || ask.externalIds.some((x) => !map.byExternalId.has(x)))) {
    throw new ServiceUnavailable(`An employee named here is not known to ${schema} yet and people could not be asked (${answer.detail}); retry later.`);
  }
  return map;
}

/** The employee of one record by `employeeId` or `employeeExternalId`, or its field error. */
export function employeeFor(map: EmployeeMap, input: { employeeId?: string; employeeExternalId?: string }): { employee: ReplicaEmployee } | { error: { path: string; message: string } } {
  const employee = input.employeeId !== undefined ? map.byId.get(input.employeeId) : map.byExternalId.get(input.employeeExternalId ?? '');
  if (employee) return { employee };
  return input.employeeId !== undefined
    ? { error: { path: 'employeeId', message: `No employee ${input.employeeId}.` } }
    : { error: { path: 'employeeExternalId', message: `No employee with externalId ${input.employeeExternalId}.` } };
}

/** The pay rates of employees from `<schema>.pay_rates` (the kit's entity of the service's own), oldest first. */
export async function replicaPayRates({ em }: Pick<ReplicaAccess, 'em' | 'schema'>, employeeIds: string[]): Promise<Map<string, ReplicatedPayRate[]>> {
  const out = new Map<string, ReplicatedPayRate[]>();
  if (employeeIds.length === 0) return out;
  const rows = await em
    .createQueryBuilder<PayRateReplicaRow>(PAY_RATE_REPLICA)
    .select(['id', 'employeeId', 'type', 'amount', 'position', 'effectiveDate'])
    .where({ employeeId: { $in: employeeIds } })
    .orderBy({ effectiveDate: 'asc', id: 'asc' })
    .execute<PayRateReplicaRow[]>('all', true);
  for (const r of rows) {
    const rate = { id: r.id, type: r.type as ReplicatedPayRate['type'], amount: trimScale(r.amount), position: r.position ?? null, effectiveDate: r.effectiveDate };
    const own = out.get(r.employeeId);
    if (own) own.push(rate);
    else out.set(r.employeeId, [rate]);
  }
  return out;
}

/** A numeric's text without its trailing zeros (Postgres' `trim_scale`): "17.2500" → "17.25", "18.0000" → "18". */
const trimScale = (amount: string) => (amount.includes('.') ? amount.replace(/0+$/, '').replace(/\.$/, '') : amount);

/**
 * The pay rate in force on a local date for a position: the latest effective on or before it of the
 * position's own rates (compared without case), else of the rates for every position (position null);
 * null when none is in force yet. Ties on one date go to the later id.
 */
export function payRateInForce<R extends { id: string; position: string | null; effectiveDate: string }>(rates: readonly R[], date: string, position: string | null): R | null {
  const due = rates.filter((r) => r.effectiveDate <= date).sort((a, b) => (a.effectiveDate === b.effectiveDate ? (a.id < b.id ? -1 : 1) : a.effectiveDate < b.effectiveDate ? -1 : 1));
  const own = position ? due.filter((r) => r.position !== null && r.position.toLowerCase() === position.toLowerCase()) : [];
  const any = due.filter((r) => r.position === null);
  return own.at(-1) ?? any.at(-1) ?? null;
}
