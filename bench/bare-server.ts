/**
 * The bare baseline of `npm run bench`: `node:http` and a `pg` pool running the same queries as the
 * services and answering the same wire shapes, with nothing else (no validation, auth, ORM, logging).
 * Started by bench/gateway.ts in a process of its own; BARE_DATABASE_URL, BARE_PORT, BARE_POOL_MAX.
 */
import http from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.BARE_DATABASE_URL, max: Number(process.env.BARE_POOL_MAX ?? 5) });
// an idle connection dropped (the runtime's Postgres restarted between the bench's pairs of processes) is replaced on next use
pool.on('error', () => undefined);

const LOCATIONS = `select * from "organization"."locations" order by "id" asc limit $1`;

// numerics as the API prints them (trim_scale: "2.500000" → "2.5"), available and value computed as inventory does
const STOCK_LEVELS = `select l."item_id", l."location_id", trim_scale(l."on_hand")::text as on_hand, trim_scale(l."reserved")::text as reserved,
    trim_scale(l."on_hand" - l."reserved")::text as available, trim_scale(l."average_cost")::text as average_cost,
    trim_scale(case when l."average_cost" is null then null else coalesce(l."stock_value", round(l."on_hand" * l."average_cost", 6)) end)::text as value,
    trim_scale(l."par_level")::text as par_level, trim_scale(l."reorder_point")::text as reorder_point,
    (l."reorder_point" is not null and l."on_hand" - l."reserved" < l."reorder_point") as below, l."version", l."updated_at",
    to_char(l."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_ts
  from "inventory"."stock_levels" l where l."location_id" = $1
  order by l."updated_at", l."item_id", l."location_id" limit $2`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function page<R>(rows: R[], limit: number, cursorOf: (r: R) => string, map: (r: R) => unknown): string {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const nextCursor = hasMore ? Buffer.from(JSON.stringify({ a: cursorOf(data[data.length - 1]) })).toString('base64url') : null;
  return JSON.stringify({ data: data.map(map), nextCursor, hasMore });
}

async function answer(req: http.IncomingMessage): Promise<string | null> {
  const url = new URL(req.url ?? '/', 'http://bare');
  const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 50), 1), 200);
  if (url.pathname === '/locations') {
    const { rows } = await pool.query(LOCATIONS, [limit + 1]);
    return page(rows, limit, (r) => r.id, (r) => ({
      id: r.id,
      name: r.name,
      externalId: r.external_id ?? null,
      timezone: r.timezone,
      businessDayCutoff: r.business_day_cutoff,
      orgUnitId: r.org_unit_id ?? null,
      address: r.address ?? null,
      status: r.status,
      version: r.version,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      archivedAt: iso(r.archived_at),
    }));
  }
  if (url.pathname === '/stock-levels') {
    const { rows } = await pool.query(STOCK_LEVELS, [url.searchParams.get('locationId'), limit + 1]);
    return page(rows, limit, (r) => JSON.stringify([r.cursor_ts, r.item_id, r.location_id]), (r) => ({
      itemId: r.item_id,
      locationId: r.location_id,
      onHand: r.on_hand,
      reserved: r.reserved,
      available: r.available,
      averageCost: r.average_cost,
      value: r.value,
      parLevel: r.par_level,
      reorderPoint: r.reorder_point,
      belowReorderPoint: r.below,
      version: r.version,
      updatedAt: r.updated_at.toISOString(),
    }));
  }
  return null;
}

const server = http.createServer((req, res) => {
  answer(req).then(
    (body) => {
      res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(body ?? '{}');
    },
    (err: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(err.message);
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BARE_PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end();
});
