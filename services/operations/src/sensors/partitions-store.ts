import { lockForTransaction, sqlQuery, type Work } from '@bop/shared';
import { OperationsSensorReading } from './entities';

/**
 * The readings' monthly partitions (the schema's sensor_readings is range-partitioned by `read_at`;
 * partitions `sensor_readings_pYYYYMM`, UTC months, and a default one for what no month holds). Each
 * partition is created or dropped in a unit of its own (the worker's `write`), under one advisory lock.
 */

const PARTITION = /^sensor_readings_p(\d{4})(\d{2})$/;

/** The first instant (UTC) of the month `k` months after the month of `at`. */
export function monthStart(at: Date, k = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));
}

const partitionName = (month: Date) => `sensor_readings_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** one creator or dropper at a time (several replicas run this worker) */
const lockPartitions = (w: Work) => lockForTransaction(w.em, `${w.schema}.sensor_readings partitions`);

/** The month partitions that exist, by name, with their month. */
export async function readingPartitions(w: Work): Promise<Array<{ name: string; month: Date }>> {
  // raw SQL (bench:sql operations.drop-partition): the catalog has no ORM form (the ORM's schema reader leaves partitions out); the
  // partitions exist for the retention that case measures (6.7× and 6.0× in two runs)
  const rows = await sqlQuery<{ name: string }>(
    w.em,
    `select c."relname" as "name" from pg_inherits i join pg_class c on c."oid" = i."inhrelid" join pg_class p on p."oid" = i."inhparent"
     join pg_namespace n on n."oid" = p."relnamespace" where n."nspname" = ? and p."relname" = 'sensor_readings'`,
    [w.schema],
  );
  return rows.flatMap((r) => {
    const m = PARTITION.exec(r.name);
    return m ? [{ name: r.name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
  });
}

/** The months (their first instant) of the current month and `monthsAhead` months after it (by the unit's clock) that have no partition. */
export async function missingReadingPartitions(w: Work, monthsAhead: number): Promise<Date[]> {
  const existing = new Set((await readingPartitions(w)).map((p) => p.name));
  const missing: Date[] = [];
  for (let k = 0; k <= monthsAhead; k += 1) {
    const from = monthStart(w.now, k);
    if (!existing.has(partitionName(from))) missing.push(from);
  }
  return missing;
}

/**
 * Creates the partition of the month starting at `from` (null: another replica just did). Readings
 * of that month already in the default partition (a month that had none) move into it in the same
 * transaction, so attaching it never fails.
 */
export async function createReadingPartition(w: Work, from: Date): Promise<string | null> {
  const name = partitionName(from);
  const to = monthStart(from, 1);
  const table = `"${w.schema}"."sensor_readings"`;
  await lockPartitions(w);
  // raw SQL (bench:sql operations.drop-partition): DDL and the catalog, no ORM form; the partitions exist for the retention that case
  // measures (6.7× and 6.0× in two runs); the move is between tables the ORM has no entity for (the default partition, the new one)
  const [again] = await sqlQuery(w.em, `select 1 from pg_class c join pg_namespace n on n."oid" = c."relnamespace" where n."nspname" = ? and c."relname" = ?`, [w.schema, name]);
  if (again) return null;
  await sqlQuery(w.em, `create table "${w.schema}"."${name}" (like ${table} including defaults including constraints)`);
  await sqlQuery(
    w.em,
    `with moved as (delete from "${w.schema}"."sensor_readings_default" where "read_at" >= ? and "read_at" < ? returning *)
     insert into "${w.schema}"."${name}" select * from moved`,
    [from, to],
  );
  await sqlQuery(w.em, `alter table ${table} attach partition "${w.schema}"."${name}" for values from ('${from.toISOString()}') to ('${to.toISOString()}')`);
  return name;
}

/** The retention's cut-off (OPERATIONS_SENSOR_READING_RETENTION_DAYS; 0 keeps everything: null). */
export function retentionCutoff(now: Date, retentionDays: number): Date | null {
  return retentionDays <= 0 ? null : new Date(now.getTime() - retentionDays * 86_400_000);
}

/** The month partitions wholly older than the cut-off. */
export async function expiredReadingPartitions(w: Work, cutoff: Date): Promise<string[]> {
  return (await readingPartitions(w)).filter((p) => monthStart(p.month, 1).getTime() <= cutoff.getTime()).map((p) => p.name);
}

export async function dropReadingPartition(w: Work, name: string): Promise<void> {
  await lockPartitions(w);
  // raw SQL (bench:sql operations.drop-partition): 35,624 µs against 238,225 through the ORM (6.7×, 6.0× in a second
  // run: a month's partition dropped against its readings deleted — 72,000 there, a month of 1,000 sensors holds 43 million)
  await sqlQuery(w.em, `drop table if exists "${w.schema}"."${name}"`);
}

/** Deletes the readings older than the cut-off left in the month that straddles it and in the default partition; answers how many. */
export async function deleteExpiredReadings(w: Work, cutoff: Date): Promise<number> {
  return w.em.nativeDelete(OperationsSensorReading, { readAt: { $lt: cutoff } });
}
