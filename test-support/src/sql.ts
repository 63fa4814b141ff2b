/** SQL and outbox reads on a test file's database (a fresh connection per call, `$1` placeholders). */
import { Client } from 'pg';
import type { TestService, TestServices } from './harness';

/** A test service, a stack of them, or a database URL: anything that names the test file's database. */
export type SqlTarget = TestService | TestServices | string;

const urlOf = (target: SqlTarget): string => (typeof target === 'string' ? target : target.db.url);

/** Runs SQL on the target's database (to age sessions, read what a service stored, insert fixtures …). */
export async function sql<T = any>(target: SqlTarget, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: urlOf(target) });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** SQL on a running service's own connection (MikroORM's `?` placeholders and type parsers), as the service reads. */
export type ServiceSql = (text: string, params?: unknown[]) => Promise<any[]>;
export function serviceSql(t: TestService): ServiceSql {
  return (text, params = []) => t.svc.runtime.orm.em.getConnection().execute(text, params);
}

export interface OutboxEvent {
  type: string;
  aggregate_id: string;
  location_id: string | null;
  /** the event envelope (parsed) */
  payload: any;
}

/** A service's outbox rows (oldest first), narrowed to a type and/or one aggregate; payloads parsed. */
export async function outboxEvents(target: SqlTarget, schema: string, where: { type?: string; aggregateId?: string } = {}): Promise<OutboxEvent[]> {
  const rows = await sql<OutboxEvent>(
    target,
    `select type, aggregate_id, location_id, payload from "${schema}".outbox
      where ($1::text is null or type = $1) and ($2::text is null or aggregate_id = $2) order by seq`,
    [where.type ?? null, where.aggregateId ?? null],
  );
  return rows.map((r) => ({ ...r, payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload }));
}

/** The payload envelopes of a service's outbox events (oldest first), narrowed like `outboxEvents`. */
export async function outboxPayloads(target: SqlTarget, schema: string, where: { type?: string; aggregateId?: string } = {}): Promise<any[]> {
  return (await outboxEvents(target, schema, where)).map((e) => e.payload);
}
