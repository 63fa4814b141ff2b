import type { StockLevel, StockLevelConfigure } from '@bop/contracts';
import { BadRequest, ChangePage, decodeCursor, findPlain, pageLimit, toPage, type ListPage, SqlWhere, sqlQuery, ValidationError, type FieldError, type Work } from '@bop/shared';
import { InventoryItem } from '../items/entities';
import { dec } from '../ledger/quantity';
import { crossedBelowReorderPoint, LEVEL_DTO_COLUMNS, lockLevels, stampAfterLock, stockLevelDto, stockLevelFromDtoRow, type Level, type LevelDtoRow } from '../ledger/store';
import { isFieldError, writableLocation } from './location-store';

export interface LevelFilter {
  /** null: every location */
  reachable: string[] | null;
  locationId?: string;
  itemId?: string;
  updatedSince?: string;
  belowReorderPoint?: boolean;
  cursor?: string;
  limit?: number;
}

/** The sort key of a level as a cursor (updated_at to the microsecond: Postgres keeps µs, a JS Date only ms). */
const CURSOR_TS = `to_char(l."updated_at" at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function parseAfter(after: string | null): [string, string, string] | null {
  if (after === null) return null;
  try {
    const k = JSON.parse(after) as unknown;
    if (Array.isArray(k) && k.length === 3 && k.every((v) => typeof v === 'string') && !Number.isNaN(Date.parse(k[0] as string))) return k as [string, string, string];
  } catch {
    // fall through
  }
  throw new BadRequest('The cursor is not valid.', [{ path: 'cursor', message: 'Not a cursor returned by this list.' }]);
}

/**
 * A page of levels ordered by updatedAt then item and location: a level that changes while a poller
 * pages moves behind it and is seen again. With `updatedSince`, in change order instead (commit-safe:
 * ChangePage, by (change_xid, item, location)).
 */
export async function listLevels(w: Work, f: LevelFilter): Promise<ListPage<StockLevel>> {
  const { em } = w;
  const where = new SqlWhere()
    .andIn('l."location_id"', f.reachable)
    .andIf(f.locationId, 'l."location_id" = ?')
    .andIf(f.itemId, 'l."item_id" = ?');
  if (f.belowReorderPoint !== undefined) {
    const below = `(l."reorder_point" is not null and l."on_hand" - l."reserved" < l."reorder_point")`;
    where.and(f.belowReorderPoint ? below : `not ${below}`);
  }
  if (f.updatedSince) {
    const changes = await ChangePage.open(em, { cursor: f.cursor, limit: f.limit, updatedSince: f.updatedSince }, ['item_id', 'location_id']);
    const c = changes.where('l');
    where.and(c.sql, ...c.params);
    // raw SQL (bench:sql inventory.list-levels, the id-order page below): Postgres prints the API shape (LEVEL_DTO_COLUMNS), 4.2× the ORM
    const rows = await sqlQuery<LevelDtoRow & { change_xid: string }>(
      em,
      `select ${LEVEL_DTO_COLUMNS}, ${changes.column('l')} from "${w.schema}"."stock_levels" l ${String(where)} order by ${changes.orderBy('l')} limit ?`,
      [...where.params, changes.limit + 1],
    );
    return changes.page(rows, (r) => [r.change_xid, r.item_id, r.location_id], stockLevelFromDtoRow);
  }
  const n = pageLimit(f.limit);
  const after = parseAfter(decodeCursor(f.cursor));
  if (after) where.and('(l."updated_at", l."item_id", l."location_id") > (?::timestamptz, ?, ?)', ...after);
  // raw SQL (bench:sql inventory.list-levels): 1,278 µs against 5,422 through the ORM (4.2×: Postgres prints the API shape, LEVEL_DTO_COLUMNS, where the ORM maps entities and decimal.js computes it)
  // a keyset on (updated_at to the µs, which a Date cannot hold, item, location)
  const rows = await sqlQuery<LevelDtoRow & { cursor_ts: string }>(
    em,
    `select ${LEVEL_DTO_COLUMNS}, ${CURSOR_TS} as "cursor_ts" from "${w.schema}"."stock_levels" l
     ${String(where)}
     order by l."updated_at", l."item_id", l."location_id" limit ?`,
    [...where.params, n + 1],
  );
  return toPage(
    rows.map((r) => ({ id: JSON.stringify([r.cursor_ts, r.item_id, r.location_id]), level: stockLevelFromDtoRow(r) })),
    n,
    (r) => r.level,
  );
}

/** Par level, reorder point, version and stamp of a level the caller has locked (lockLevels). */
export async function saveLevelConfiguration(w: Work, next: Pick<Level, 'itemId' | 'locationId' | 'parLevel' | 'reorderPoint' | 'version' | 'updatedAt'>): Promise<void> {
  // raw SQL (bench:sql inventory.configure-level): 1,483 µs against 4,785 through the ORM (3.2×: nativeUpdate's query building costs more than the one-row update)
  // the ledger's level row, locked by lockLevels above
  await sqlQuery(
    w.em,
    `update "${w.schema}"."stock_levels" set "par_level" = ?::numeric, "reorder_point" = ?::numeric, "version" = ?, "updated_at" = ? where "item_id" = ? and "location_id" = ?`,
    [next.parLevel?.toFixed() ?? null, next.reorderPoint?.toFixed() ?? null, next.version, next.updatedAt, next.itemId, next.locationId],
  );
}

/**
 * `POST /stock-levels:configure`: par level and reorder point of an item at a location, the level
 * locked as the ledger locks it (a concurrent movement waits; nothing is lost). Version +1 when
 * something changes (the same values again change nothing). `stock.below_reorder_point` when the new
 * reorder point puts available below it and it was not below before; no `stock.level_changed`
 * (no quantity changes: spec event mapping, "on hand, reserved or available changes").
 */
export async function configureLevel(w: Work, body: StockLevelConfigure): Promise<StockLevel> {
  const { em } = w;
  const errors: FieldError[] = [];
  const location = await writableLocation(w, body.locationId);
  if (isFieldError(location)) errors.push(location);
  const [item] = await findPlain(em, InventoryItem, { id: body.itemId });
  if (!item) errors.push({ path: 'itemId', message: `No item ${body.itemId}.` });
  else if (item.status !== 'active') errors.push({ path: 'itemId', message: `Item ${body.itemId} is archived.` });
  if (errors.length > 0) throw new ValidationError(errors);

  const level = (await lockLevels(w, [{ itemId: body.itemId, locationId: body.locationId }])).values().next().value!;
  w.checkVersion(level.version);
  const now = stampAfterLock(w.now, [level]);
  const parLevel = body.parLevel === undefined ? level.parLevel : body.parLevel === null ? null : dec(body.parLevel);
  const reorderPoint = body.reorderPoint === undefined ? level.reorderPoint : body.reorderPoint === null ? null : dec(body.reorderPoint);
  if (parLevel !== null && reorderPoint !== null && reorderPoint.gt(parLevel)) {
    throw new ValidationError([
      { path: body.reorderPoint !== undefined ? 'reorderPoint' : 'parLevel', message: `The reorder point (${reorderPoint.toFixed()}) must not exceed the par level (${parLevel.toFixed()}).` },
    ]);
  }
  const same = (a: typeof parLevel, b: typeof parLevel) => (a === null ? b === null : b !== null && a.eq(b));
  if (same(parLevel, level.parLevel) && same(reorderPoint, level.reorderPoint)) return stockLevelDto(level);

  const available = level.onHand.minus(level.reserved);
  const crossed = crossedBelowReorderPoint(available, available, reorderPoint, level.reorderPoint);
  const next = { ...level, parLevel, reorderPoint, version: level.version + 1, updatedAt: now };
  await saveLevelConfiguration(w, next);
  const dto = stockLevelDto(next);
  if (crossed) {
    w.emit({ type: 'stock.below_reorder_point', aggregateType: 'stock_level', aggregateId: `${level.itemId}:${level.locationId}`, locationId: level.locationId, object: dto });
  }
  return dto;
}
