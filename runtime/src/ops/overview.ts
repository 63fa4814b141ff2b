import { Client } from 'pg';
import { createOrm, loadConfig, baseConfigSchema, pendingMigrations, type BaseConfig } from '@bop/shared';
import { serviceTable } from '@bop/contracts';
import { serviceDefinitions } from '../services';

/** What `ops status` shows and `ops doctor` judges: read straight from the database, API or not. */
export interface Overview {
  services: { name: string; schema: string; pendingMigrations: string[]; outbox: { unpublished: number; oldestSeconds: number | null }; deadLetters: number }[];
  bus: { kind: 'postgres' | 'kafka'; head: string | null; groups: { group: string; position: string; behind: number; oldestSeconds: number | null; updatedSecondsAgo: number }[] };
  webhooks: { endpoints: number; disabled: { id: string; url: string }[]; pending: number; oldestPendingSeconds: number | null; failed: number } | null;
  email: { pending: number; failed: number } | null;
}

const seconds = (v: string | number | null) => (v === null ? null : Math.max(0, Math.round(Number(v))));

async function exists(c: Client, table: string): Promise<boolean> {
  return (await c.query<{ t: string | null }>('select to_regclass($1) as t', [table])).rows[0].t !== null;
}

export async function readOverview(url: string): Promise<Overview> {
  const config = loadConfig(baseConfigSchema, { ...process.env, DATABASE_URL: url }) as BaseConfig;
  const c = new Client({ connectionString: url, application_name: 'ops-status' });
  await c.connect();
  try {
    const services: Overview['services'] = [];
    for (const def of serviceDefinitions) {
      const schema = serviceTable[def.name].schema;
      const orm = await createOrm({ schema, clientUrl: url, entities: def.entities, migrations: def.migrations, poolMax: 1 });
      let pending: string[];
      try {
        pending = await pendingMigrations(orm);
      } finally {
        await orm.close(true);
      }
      let outbox: Overview['services'][number]['outbox'] = { unpublished: 0, oldestSeconds: null };
      if (await exists(c, `"${schema}"."outbox"`)) {
        const r = (await c.query<{ n: string; age: string | null }>(`select count(*) as n, extract(epoch from now() - min(created_at)) as age from "${schema}"."outbox" where published_at is null`)).rows[0];
        outbox = { unpublished: Number(r.n), oldestSeconds: seconds(r.age) };
      }
      const deadLetters = (await exists(c, `"${schema}"."dead_letters"`)) ? Number((await c.query<{ n: string }>(`select count(*) as n from "${schema}"."dead_letters"`)).rows[0].n) : 0;
      services.push({ name: def.name, schema, pendingMigrations: pending, outbox, deadLetters });
    }

    const bus: Overview['bus'] = { kind: config.BUS, head: null, groups: [] };
    if (config.BUS === 'postgres') {
      const b = config.BUS_DATABASE_URL && config.BUS_DATABASE_URL !== url ? new Client({ connectionString: config.BUS_DATABASE_URL, application_name: 'ops-status' }) : c;
      if (b !== c) await b.connect();
      try {
        if (await exists(b, '"bus"."positions"')) {
          bus.head = (await b.query<{ head: string | null }>(`select max("position")::text as head from "bus"."messages"`)).rows[0].head ?? '0';
          const { rows } = await b.query<{ group_id: string; position: string; behind: string; age: string | null; updated: string }>(
            `select p.group_id, p.position::text, greatest(0, $1::bigint - p.position) as behind,
               extract(epoch from now() - (select m.published_at from "bus"."messages" m where m.position > p.position order by m.position limit 1)) as age,
               extract(epoch from now() - p.updated_at) as updated
             from "bus"."positions" p order by p.group_id`,
            [bus.head],
          );
          bus.groups = rows.map((r) => ({ group: r.group_id, position: r.position, behind: Number(r.behind), oldestSeconds: seconds(r.age), updatedSecondsAgo: seconds(r.updated) ?? 0 }));
        }
      } finally {
        if (b !== c) await b.end();
      }
    }

    let webhooks: Overview['webhooks'] = null;
    if (await exists(c, '"webhooks"."endpoints"')) {
      const disabled = (await c.query<{ id: string; url: string }>(`select id, url from "webhooks"."endpoints" where status = 'disabled' order by id`)).rows;
      const endpoints = Number((await c.query<{ n: string }>(`select count(*) as n from "webhooks"."endpoints"`)).rows[0].n);
      const q = (
        await c.query<{ pending: string; failed: string; age: string | null }>(
          `select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'failed') as failed,
             extract(epoch from now() - min(created_at) filter (where status = 'pending')) as age
           from "webhooks"."deliveries"`,
        )
      ).rows[0];
      webhooks = { endpoints, disabled, pending: Number(q.pending), oldestPendingSeconds: seconds(q.age), failed: Number(q.failed) };
    }

    let email: Overview['email'] = null;
    if (await exists(c, '"identity"."email_log"')) {
      const hasStatus = (await c.query(`select 1 from information_schema.columns where table_schema = 'identity' and table_name = 'email_log' and column_name = 'status'`)).rows.length > 0;
      if (hasStatus) {
        const r = (await c.query<{ pending: string; failed: string }>(`select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'failed') as failed from "identity"."email_log"`)).rows[0];
        email = { pending: Number(r.pending), failed: Number(r.failed) };
      }
    }
    return { services, bus, webhooks, email };
  } finally {
    await c.end();
  }
}

export interface DoctorLimits {
  /** the oldest unpublished outbox row older than this: the relay is stalled */
  stallSeconds: number;
  /** a consumer group this many messages behind the head is lagging */
  maxLag: number;
}

/** The problems in an overview, each one line saying what is wrong and what to do. */
export function overviewProblems(o: Overview, limits: DoctorLimits): { check: string; ok: boolean; detail: string }[] {
  const checks: { check: string; ok: boolean; detail: string }[] = [];
  for (const s of o.services) {
    checks.push(
      s.pendingMigrations.length === 0
        ? { check: `${s.name}.migrations`, ok: true, detail: `${s.name}: migrations current` }
        : { check: `${s.name}.migrations`, ok: false, detail: `${s.name}: ${s.pendingMigrations.length} migration(s) pending (${s.pendingMigrations.join(', ')}); start the service or run ops migrate` },
    );
    const stalled = s.outbox.oldestSeconds !== null && s.outbox.oldestSeconds > limits.stallSeconds;
    checks.push({
      check: `${s.name}.relay`,
      ok: !stalled,
      detail: stalled
        ? `${s.name}: relay stalled: ${s.outbox.unpublished} outbox event(s) unpublished, the oldest ${s.outbox.oldestSeconds}s old (over ${limits.stallSeconds}s); is the service running?`
        : `${s.name}: outbox ${s.outbox.unpublished} unpublished`,
    });
    checks.push(
      s.deadLetters === 0
        ? { check: `${s.name}.dead-letters`, ok: true, detail: `${s.name}: no dead letters` }
        : { check: `${s.name}.dead-letters`, ok: false, detail: `${s.name}: ${s.deadLetters} dead letter(s); see ops dead-letters list, then ops dead-letters retry` },
    );
  }
  for (const g of o.bus.groups) {
    const lagging = g.behind > limits.maxLag;
    checks.push({
      check: `bus.${g.group}`,
      ok: !lagging,
      detail: lagging
        ? `bus: consumer group ${g.group} is ${g.behind} message(s) behind (over ${limits.maxLag}), the oldest waiting ${g.oldestSeconds ?? 0}s`
        : `bus: ${g.group} ${g.behind} behind`,
    });
  }
  if (o.webhooks) {
    checks.push(
      o.webhooks.disabled.length === 0
        ? { check: 'webhooks.endpoints', ok: true, detail: `webhooks: ${o.webhooks.endpoints} endpoint(s), none disabled` }
        : {
            check: 'webhooks.endpoints',
            ok: false,
            detail: `webhooks: ${o.webhooks.disabled.length} endpoint(s) disabled (${o.webhooks.disabled.map((e) => `${e.id} ${e.url}`).join(', ')}); fix the receiver, then ops webhooks enable <id>`,
          },
    );
  }
  return checks;
}
