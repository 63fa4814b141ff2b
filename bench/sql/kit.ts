import { LockMode } from '@mikro-orm/core';
import type { ResolvedEmployee } from '@bop/contracts';
import { batchCompletedEvent, contentHash, employeeReadThrough, ingestBatch, lockStoredRecords, locationsInOrgUnitsOf, newId, resolveEmployees, resolveLocations, type PreparedRecord, type RecordResult, type Work } from '@bop/shared';
import { locationReadThrough, type OwnedLocation } from '@bop/shared/dist/org-replica';
import { ORG_UNIT_REPLICA, PAY_RATE_REPLICA, type OrgUnitReplicaRow, type PayRateReplicaRow } from '@bop/shared/dist/replica-entities';
import { timeService } from '@svc/time';
import { TimeEmployee } from '@svc/time/dist/employees/entities';
import { TimeLocation } from '@svc/time/dist/locations/entities';
import { salesService } from '@svc/sales';
import { SalesTransaction } from '@svc/sales/dist/transactions/entities';
import { transactionsTarget } from '@svc/sales/dist/transactions/store';
import type { SqlCase } from './case';

/**
 * The kit's kept raw statements (cases named `kit.<what>`): the stores of the replicas every service
 * holds (employees and pay rates, locations and org units), hosted by time, which has them all; and
 * the batch upsert of every ingest endpoint, through sales' transactions. pay_rates and org_units are
 * queried through the kit's entities of them (replica-entities.ts), which time's ORM has.
 */
const PayRateEntity = PAY_RATE_REPLICA;
type PayRateEntity = PayRateReplicaRow;
const OrgUnitEntity = ORG_UNIT_REPLICA;
type OrgUnitEntity = OrgUnitReplicaRow;

/** time (one database for the replica cases) */
const benchTime = timeService;

/** A busy company: 200 locations under 5 regions of 4 districts, 2,000 employees (10 a location), 2 pay rates each. */
const LOCATIONS = 200;
const EMPLOYEES = 2000;
const loc = (i: number) => `loc_bench${String(i).padStart(4, '0')}`;
const emp = (i: number) => `emp_bench${String(i).padStart(4, '0')}`;
const region = (i: number) => `org_region${i}`;
const district = (i: number) => `org_district${String(i).padStart(2, '0')}`;
const T0 = new Date('2026-11-01T08:00:00.000Z');
const T1 = '2026-11-20T09:30:00.000Z';

let seeded: Promise<void> | undefined;
function seedReplicas(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  seeded ??= write(async (w) => {
    await w.em.insertMany(OrgUnitEntity, [
      { id: 'org_root', parentId: null, status: 'active', updatedAt: T0 },
      ...Array.from({ length: 5 }, (_, r) => ({ id: region(r), parentId: 'org_root', status: 'active', updatedAt: T0 })),
      ...Array.from({ length: 20 }, (_, d) => ({ id: district(d), parentId: region(Math.floor(d / 4)), status: 'active', updatedAt: T0 })),
    ]);
    await w.em.insertMany(
      TimeLocation,
      Array.from({ length: LOCATIONS }, (_, i) => ({ id: loc(i), externalId: `store-${i}`, timezone: 'America/Chicago', businessDayCutoff: '04:00', status: 'active', orgUnitId: district(Math.floor(i / 10)), updatedAt: T0 })),
    );
    await w.em.insertMany(
      TimeEmployee,
      Array.from({ length: EMPLOYEES }, (_, i) => ({
        id: emp(i),
        externalId: `hr-${i}`,
        employeeNumber: `E${i}`,
        firstName: `First${i}`,
        lastName: `Last${i}`,
        status: 'active',
        homeLocationId: loc(Math.floor(i / 10)),
        locationIds: [loc(Math.floor(i / 10))],
        departmentId: null,
        positions: ['cook', 'server'],
        hireDate: '2024-03-01',
        terminationDate: null,
        userId: null,
        version: 1 + (i % 4),
        updatedAt: T0,
      })),
    );
    await w.em.insertMany(
      PayRateEntity,
      Array.from({ length: EMPLOYEES }, (_, i) => [
        { id: `prt_bench${i}a`, employeeId: emp(i), type: 'hourly', amount: '15.5000', position: null, effectiveDate: '2024-03-01' },
        { id: `prt_bench${i}b`, employeeId: emp(i), type: 'hourly', amount: '17.2500', position: 'cook', effectiveDate: '2025-06-01' },
      ]).flat(),
    );
  });
  return seeded;
}

/** A batch of 1,000 punches names 1,000 employees (of 2,000), by id. */
const BATCH_IDS = Array.from({ length: 1000 }, (_, i) => emp(i * 2));
/** A sales batch names 20 locations. */
const BATCH_LOCATIONS = Array.from({ length: 20 }, (_, i) => loc(i * 10));

/** people's answer to a read-through of 1,000 employees: 500 held at an older version, 500 new; a new rate each */
const ANSWERED: ResolvedEmployee[] = Array.from({ length: 1000 }, (_, k) => {
  const held = k < 500;
  const i = held ? k * 4 : EMPLOYEES + k;
  return {
    id: emp(i),
    externalId: held ? `hr-${i}` : `hr-${i}`,
    employeeNumber: `E${i}`,
    firstName: `First${i}`,
    lastName: `Renamed${i}`,
    status: 'active',
    homeLocationId: loc(i % LOCATIONS),
    locationIds: [loc(i % LOCATIONS)],
    departmentId: null,
    positions: ['cook'],
    hireDate: '2024-03-01',
    terminationDate: null,
    userId: null,
    version: 9,
    updatedAt: T1,
    payRates: [{ id: `prt_bench${i}c`, type: 'hourly', amount: '18.7500', position: null, effectiveDate: '2026-11-15' }],
  };
});

/** organization's answer to a read-through of 20 locations: 10 held (moved to another unit), 10 new (one claims a held location's externalId) */
const LOCATIONS_ANSWERED: OwnedLocation[] = Array.from({ length: 20 }, (_, k) => {
  const held = k < 10;
  const i = held ? k * 10 : LOCATIONS + k;
  return { id: loc(i), externalId: k === 10 ? 'store-5' : `store-${i}`, timezone: 'America/New_York', businessDayCutoff: '05:00', status: 'active', orgUnitId: district(19 - k), updatedAt: T1 };
});

const sortById = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** what both upserts leave (read after the write, the same read in each) */
async function employeesState(w: Work) {
  const ids = ANSWERED.map((e) => e.id);
  const rows = await w.em.createQueryBuilder(TimeEmployee).select(['id', 'externalId', 'lastName', 'version', 'updatedAt']).where({ id: { $in: ids } }).orderBy({ id: 'asc' }).execute('all', true);
  const rates = await w.em.count(PayRateEntity, { employeeId: { $in: ids } });
  return { rows, rates };
}
async function locationsState(w: Work) {
  return w.em
    .createQueryBuilder(TimeLocation)
    .select(['id', 'externalId', 'timezone', 'orgUnitId', 'updatedAt'])
    .where({ $or: [{ id: { $in: LOCATIONS_ANSWERED.map((l) => l.id) } }, { externalId: 'store-5' }] })
    .orderBy({ id: 'asc' })
    .execute('all', true);
}

/** The ORM's upsert of the replica's employees: load the rows the answer names (locked), change, create, flush. */
async function ormUpsertEmployees(w: Work, rows: ResolvedEmployee[]): Promise<void> {
  const em = w.em;
  const claimed = rows.filter((e) => e.externalId !== null);
  if (claimed.length > 0) {
    // an older row still holding an externalId a newer state claims lets go of it
    const holders = await em.find(TimeEmployee, { externalId: { $in: claimed.map((e) => e.externalId!) } }, { fields: ['id', 'externalId', 'updatedAt'] });
    const by = new Map(claimed.map((e) => [e.externalId!, e]));
    const release = holders.filter((h) => {
      const x = by.get(h.externalId!)!;
      return h.id !== x.id && h.updatedAt.getTime() <= Date.parse(x.updatedAt);
    });
    if (release.length > 0) await em.nativeUpdate(TimeEmployee, { id: { $in: release.map((h) => h.id) } }, { externalId: null });
  }
  const held = new Map((await em.find(TimeEmployee, { id: { $in: rows.map((e) => e.id) } }, { orderBy: { id: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE })).map((e) => [e.id, e]));
  for (const e of sortById(rows)) {
    const { payRates: _rates, updatedAt, ...values } = e;
    const row = held.get(e.id);
    if (!row) em.create(TimeEmployee, { ...values, updatedAt: new Date(updatedAt) });
    else if (row.version <= e.version) Object.assign(row, values, { updatedAt: new Date(updatedAt) });
  }
  await em.flush();
  const rates = rows.flatMap((e) => (e.payRates ?? []).map((r) => ({ id: r.id, employeeId: e.id, type: r.type, amount: r.amount, position: r.position, effectiveDate: r.effectiveDate })));
  if (rates.length > 0) await em.upsertMany(PayRateEntity, rates, { onConflictFields: ['id'], onConflictAction: 'ignore' });
}

/** the kit's replicas (time hosts them: it holds employees, pay rates, locations and org units) */
const replicaCases: SqlCase[] = [
  {
    name: 'kit.resolve-employees',
    what: 'the 1,000 employees a punch batch names (of 2,000), from the replica (people not asked)',
    service: benchTime,
    seed: seedReplicas,
    raw: async (w) => sortById([...(await resolveEmployees(w, BATCH_IDS.map((employeeId) => ({ employeeId })))).byId.values()]),
    async orm(w) {
      const ids = BATCH_IDS;
      const externalIds: string[] = [];
      const or = [...(ids.length > 0 ? [{ id: { $in: ids } }] : []), ...(externalIds.length > 0 ? [{ externalId: { $in: externalIds } }] : [])];
      const rows = await w.em
        .createQueryBuilder(TimeEmployee)
        .select(['id', 'externalId', 'employeeNumber', 'firstName', 'lastName', 'status', 'homeLocationId', 'locationIds', 'departmentId', 'positions', 'hireDate', 'terminationDate', 'userId', 'version'])
        .where({ $or: or })
        .execute('all', true);
      return sortById(rows);
    },
  },
  {
    name: 'kit.upsert-employees',
    what: "people's answer of 1,000 employees (500 newer, 500 new, a new rate each) upserted into the replica",
    service: benchTime,
    seed: seedReplicas,
    raw: async (w) => {
      await employeeReadThrough.upsert(w.em, w.schema, ANSWERED);
      return employeesState(w);
    },
    async orm(w) {
      await ormUpsertEmployees(w, ANSWERED);
      return employeesState(w);
    },
  },
  {
    name: 'kit.resolve-locations',
    what: 'the 20 locations a sales batch names, from the replica (organization not asked)',
    service: benchTime,
    seed: seedReplicas,
    raw: async (w) => sortById([...(await resolveLocations(w, BATCH_LOCATIONS.map((locationId) => ({ locationId })))).byId.values()]),
    async orm(w) {
      const rows = await w.em
        .createQueryBuilder(TimeLocation)
        .select(['id', 'externalId', 'timezone', 'businessDayCutoff', 'status'])
        .where({ $or: [{ id: { $in: BATCH_LOCATIONS } }] })
        .execute('all', true);
      return sortById(rows);
    },
  },
  {
    name: 'kit.upsert-locations',
    what: "organization's answer of 20 locations (10 newer, 10 new, one taking a held externalId) upserted into the replica",
    service: benchTime,
    seed: seedReplicas,
    raw: async (w) => {
      await locationReadThrough.upsert(w.em, w.schema, LOCATIONS_ANSWERED);
      return locationsState(w);
    },
    async orm(w) {
      const em = w.em;
      for (const o of LOCATIONS_ANSWERED) {
        const updatedAt = new Date(o.updatedAt);
        if (o.externalId) await em.nativeUpdate(TimeLocation, { externalId: o.externalId, id: { $ne: o.id }, updatedAt: { $lte: updatedAt } }, { externalId: null });
        await em
          .createQueryBuilder(TimeLocation)
          .insert({ ...o, updatedAt })
          .onConflict('id')
          .merge(['externalId', 'timezone', 'orgUnitId', 'businessDayCutoff', 'status', 'updatedAt'])
          .where({ updatedAt: { $lte: updatedAt } })
          .execute();
      }
      return locationsState(w);
    },
  },
  {
    name: 'kit.locations-in-org-units',
    what: "the locations of a reach by one region (4 districts, 40 locations) from the replica's tree",
    service: benchTime,
    seed: seedReplicas,
    raw: async (w) => (await locationsInOrgUnitsOf(w.schema)(w, [region(2)])).sort(),
    async orm(w) {
      // the tree walked level by level, then the locations of every unit found
      const units = new Set<string>((await w.em.createQueryBuilder(OrgUnitEntity).select(['id']).where({ id: { $in: [region(2)] } }).execute<OrgUnitEntity[]>('all', true)).map((u) => u.id));
      let frontier = [...units];
      while (frontier.length > 0) {
        const children = await w.em.createQueryBuilder(OrgUnitEntity).select(['id']).where({ parentId: { $in: frontier } }).execute<OrgUnitEntity[]>('all', true);
        frontier = children.map((c) => c.id).filter((id) => !units.has(id));
        for (const id of frontier) units.add(id);
      }
      const rows = await w.em.createQueryBuilder(TimeLocation).select(['id']).where({ orgUnitId: { $in: [...units] } }).execute<Array<{ id: string }>>('all', true);
      return rows.map((r) => r.id).sort();
    },
  },
];

/** sales' ingest target: 2,000 transactions of a source stored; a batch of 1,000 re-sends 400, changes 300, adds 300 */
const SOURCE = 'bench-pos';
const txnRow = (i: number, v: number) => ({
  location_id: loc(i % 20),
  occurred_at: new Date(Date.UTC(2026, 10, 27, 14, 0) + i * 30_000).toISOString(),
  business_day: '2026-11-27',
  type: 'sale',
  status: 'completed',
  channel: 'in_store',
  register_id: `r${i % 4}`,
  employee_external_id: null,
  subtotal: (10 + (i % 50) + v).toFixed(2),
  tax: '0.80',
  total: (10.8 + (i % 50) + v).toFixed(2),
  currency: 'USD',
  refund_of: null,
  lines: [{ sku: `sku-${i % 30}`, quantity: 1 + v, unitPrice: (10 + (i % 50)).toFixed(2) }],
  tenders: [{ type: 'card', amount: (10.8 + (i % 50) + v).toFixed(2) }],
});
type TxnRow = ReturnType<typeof txnRow>;
const txnExt = (i: number) => `pos-${String(i).padStart(5, '0')}`;

let salesSeeded: Promise<void> | undefined;
function seedSales(write: <T>(fn: (w: Work) => Promise<T>) => Promise<T>): Promise<void> {
  return (salesSeeded ??= write(async (w) => {
    await w.em.insertMany(
      SalesTransaction,
      Array.from({ length: 2000 }, (_, i) => {
        const r = txnRow(i, 0);
        return {
          id: `txn_bench${String(i).padStart(5, '0')}`,
          source: SOURCE,
          externalId: txnExt(i),
          ...entityValues(r),
          contentHash: contentHash(r),
          version: 1,
          createdAt: T0,
          updatedAt: T0,
        };
      }),
    );
  }));
}

const entityValues = (r: TxnRow) => ({
  locationId: r.location_id,
  occurredAt: new Date(r.occurred_at),
  businessDay: r.business_day,
  type: r.type,
  status: r.status,
  channel: r.channel,
  registerId: r.register_id,
  employeeExternalId: r.employee_external_id,
  subtotal: r.subtotal,
  tax: r.tax,
  total: r.total,
  currency: r.currency,
  refundOf: r.refund_of,
  lines: r.lines as never,
  tenders: r.tenders as never,
});

const BATCH: Array<PreparedRecord<TxnRow>> = Array.from({ length: 1000 }, (_, k) => {
  const i = k < 700 ? k * 2 : 2000 + k;
  const row = txnRow(i, k < 400 ? 0 : 1);
  return { index: k, externalId: txnExt(i), row, id: `txn_benchnew${k}` };
});
const batchAnswer = (b: { results: RecordResult[]; created: number; updated: number; unchanged: number }) => ({ created: b.created, updated: b.updated, unchanged: b.unchanged, results: b.results });
async function salesState(w: Work) {
  const v2 = await w.em.count(SalesTransaction, { source: SOURCE, version: 2 });
  const all = await w.em.count(SalesTransaction, { source: SOURCE });
  return { v2, all };
}

const ingestCases: SqlCase[] = [
  {
    name: 'kit.ingest-batch',
    what: 'a sales batch of 1,000 (400 re-sent, 300 changed, 300 new; 2,000 stored): locked, compared, upserted',
    service: salesService,
    seed: seedSales,
    raw: async (w) => ({ batch: batchAnswer(await ingestBatch(w, { target: transactionsTarget, source: SOURCE, records: BATCH, area: 'sales', endpoint: 'POST /sales/transactions:batch' })), state: await salesState(w) }),
    async orm(w) {
      const answer = await w.em.transactional(async (em) => {
        const results: RecordResult[] = BATCH.map((r) => ({ index: r.index, externalId: r.externalId, status: 'rejected' }));
        const hashes = BATCH.map((r) => contentHash(r.row!));
        const stored = await em.find(
          SalesTransaction,
          { source: SOURCE, externalId: { $in: BATCH.map((r) => r.externalId!) } },
          { orderBy: { externalId: 'asc' }, lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        const byExt = new Map(stored.map((s) => [s.externalId, s]));
        const order = BATCH.map((r, k) => ({ r, k })).sort((a, b) => (a.r.externalId! < b.r.externalId! ? -1 : 1));
        for (const { r, k } of order) {
          const old = byExt.get(r.externalId!);
          if (old && old.contentHash === hashes[k]) {
            results[k].status = 'unchanged';
            results[k].id = old.id;
          } else if (old) {
            Object.assign(old, entityValues(r.row!), { contentHash: hashes[k], version: old.version + 1, updatedAt: w.now });
            results[k].status = 'updated';
            results[k].id = old.id;
          } else {
            em.create(SalesTransaction, { id: r.id ?? newId('salesTransaction'), source: SOURCE, externalId: r.externalId!, ...entityValues(r.row!), contentHash: hashes[k], version: 1, createdAt: w.now, updatedAt: w.now });
            results[k].status = 'created';
            results[k].id = r.id;
          }
        }
        await em.flush();
        const counts = { created: 0, updated: 0, unchanged: 0, duplicate: 0, rejected: 0 };
        for (const r of results) counts[r.status] += 1;
        const batch = { batchId: newId('batch'), received: BATCH.length, ...counts, results };
        w.emit(batchCompletedEvent(batch, { area: 'sales', actor: w.actor, source: SOURCE, endpoint: 'POST /sales/transactions:batch', at: w.now }), { actor: w.actor });
        return batch;
      });
      return { batch: batchAnswer(answer), state: await salesState(w) };
    },
  },
  {
    name: 'kit.lock-stored-records',
    what: "the stored rows of a sales batch's 1,000 externalIds (700 stored), locked in externalId order with 3 columns",
    service: salesService,
    seed: seedSales,
    raw: async (w) =>
      [...(await lockStoredRecords(w, transactionsTarget, SOURCE, BATCH.map((r) => r.externalId!), [`"location_id"`, `to_char("business_day", 'YYYY-MM-DD') as "business_day"`, `"status"`])).values()],
    async orm(w) {
      const rows = await w.em
        .createQueryBuilder(SalesTransaction)
        .select(['id', 'externalId', 'contentHash', 'locationId', 'businessDay', 'status'])
        .where({ source: SOURCE, externalId: { $in: BATCH.map((r) => r.externalId!) } })
        .orderBy({ externalId: 'asc' })
        .setLockMode(LockMode.PESSIMISTIC_WRITE)
        .execute<SalesTransaction[]>('all', true);
      return rows.map((r) => ({ id: r.id, external_id: r.externalId, content_hash: r.contentHash, location_id: r.locationId, business_day: r.businessDay, status: r.status }));
    },
  },
];

export const kitCases: SqlCase[] = [...replicaCases, ...ingestCases];
