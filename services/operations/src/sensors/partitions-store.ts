import { lockForTransaction, sqlQuery, type EntityManager } from '@bop/shared';

/**
 * The readings' monthly partitions (operations.sensor_readings is range-partitioned by `read_at`;
 * partitions `sensor_readings_pYYYYMM`, UTC months, and a default one for what no month holds).
 */

const PARTITION = /^sensor_readings_p(\d{4})(\d{2})$/;

/** The first instant (UTC) of the month `k` months after the month of `at`. */
export function monthStart(at: Date, k = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));
}

const partitionName = (month: Date) => `sensor_readings_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** The month partitions that exist, by name, with their month. */
export async function readingPartitions(em: EntityManager): Promise<Array<{ name: string; month: Date }>> {
  const rows = await sqlQuery<{ name: string }>(
    em,
    `select c."relname" as "name" from pg_inherits i join pg_class c on c."oid" = i."inhrelid" join pg_class p on p."oid" = i."inhparent"
     join pg_namespace n on n."oid" = p."relnamespace" where n."nspname" = 'operations' and p."relname" = 'sensor_readings'`,
  );
  return rows.flatMap((r) => {
    const m = PARTITION.exec(r.name);
    return m ? [{ name: r.name, month: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)) }] : [];
  });
}

/**
 * Creates the partitions of the current month and `monthsAhead` months after it (by the clock) that
 * are missing. Readings of such a month already in the default partition (a month that had none)
 * move into it in the same transaction, so attaching it never fails.
 */
export async function ensureReadingPartitions(em: EntityManager, now: Date, monthsAhead: number): Promise<string[]> {
  const created: string[] = [];
  const existing = new Set((await readingPartitions(em)).map((p) => p.name));
  for (let k = 0; k <= monthsAhead; k += 1) {
    const from = monthStart(now, k);
    const name = partitionName(from);
    if (existing.has(name)) continue;
    const to = monthStart(now, k + 1);
    await em.transactional(async (tem) => {
      // one creator at a time (several replicas run this worker)
      await lockForTransaction(tem, 'operations.sensor_readings partitions');
      const [again] = await sqlQuery(tem, `select 1 from pg_class c join pg_namespace n on n."oid" = c."relnamespace" where n."nspname" = 'operations' and c."relname" = ?`, [name]);
      if (again) return;
      await sqlQuery(tem, `create table "operations"."${name}" (like "operations"."sensor_readings" including defaults including constraints)`);
      await sqlQuery(
        tem,
        `with moved as (delete from "operations"."sensor_readings_default" where "read_at" >= ? and "read_at" < ? returning *)
         insert into "operations"."${name}" select * from moved`,
        [from, to],
      );
      await sqlQuery(tem, `alter table "operations"."sensor_readings" attach partition "operations"."${name}" for values from ('${from.toISOString()}') to ('${to.toISOString()}')`);
      created.push(name);
    });
  }
  return created;
}

/**
 * Retention (OPERATIONS_SENSOR_READING_RETENTION_DAYS; 0 keeps everything): month partitions wholly
 * older than the cut-off are dropped; older readings in the month that straddles it and in the
 * default partition are deleted. Alarms are kept (they are the record of what happened).
 */
export async function applyReadingRetention(em: EntityManager, now: Date, retentionDays: number): Promise<{ dropped: string[]; deleted: number }> {
  if (retentionDays <= 0) return { dropped: [], deleted: 0 };
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  const dropped: string[] = [];
  for (const p of await readingPartitions(em)) {
    if (monthStart(p.month, 1).getTime() > cutoff.getTime()) continue;
    await em.transactional(async (tem) => {
      await lockForTransaction(tem, 'operations.sensor_readings partitions');
      await sqlQuery(tem, `drop table if exists "operations"."${p.name}"`);
    });
    dropped.push(p.name);
  }
  const deleted = await sqlQuery<{ n: string }>(
    em,
    `with gone as (delete from "operations"."sensor_readings" where "read_at" < ? returning 1) select count(*) as "n" from gone`,
    [cutoff],
  );
  return { dropped, deleted: Number(deleted[0]?.n ?? 0) };
}
