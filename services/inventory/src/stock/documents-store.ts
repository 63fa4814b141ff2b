import Decimal from 'decimal.js';
import type { FilterQuery } from '@mikro-orm/core';
import type { StockAdjustment, StockAdjustmentCreate, StockDocumentLine, StockMovement, WasteRecord, WasteRecordCreate } from '@bop/contracts';
import { actorOf, businessDayOf, findPlain, newId, ValidationError, type FieldError, type Work } from '@bop/shared';
import type { ResolvedLine } from '../items/lines';
import { resolveLines } from '../items/lines-store';
import { formatNullable, formatQuantity } from '../ledger/quantity';
import { postMovements, stockMovementDto, type MovementInput } from '../ledger/store';
import { adjustmentLineErrors, baseQuantityError, headerErrors, lineCountErrors, sortErrors } from './adjustment-rules';
import { documentDto, type DocumentKind } from './dto';
import { InventoryStockDocument, InventoryStockMovement } from './entities';
import { isFieldError, writableLocation, type StockLocation } from './location-store';

type Body = StockAdjustmentCreate | WasteRecordCreate;

/**
 * Everything wrong with a document, in one 422: header (reason `other` without a note, a future
 * occurredAt), the location, the items and units (`resolveLines`), and per kind the lines' rules.
 * Answers the location and the resolved lines when all is well.
 */
async function validateDocument(
  w: Work,
  body: Body,
  maxLines: number,
  lineRules: (resolved: ResolvedLine[]) => FieldError[],
  pureErrors: FieldError[],
): Promise<{ location: StockLocation; resolved: ResolvedLine[] }> {
  const tooMany = lineCountErrors(body.lines, maxLines);
  if (tooMany.length > 0) throw new ValidationError(tooMany);
  const errors = [...headerErrors(body, w.now), ...pureErrors];
  const location = await writableLocation(w, body.locationId);
  if (isFieldError(location)) errors.push(location);
  let resolved: ResolvedLine[] | null = null;
  try {
    // archived items may still be written off (their rules per kind refuse stock arriving)
    resolved = await resolveLines(w, body.lines, { allowArchived: true });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...(err.errors ?? []));
  }
  if (resolved) errors.push(...lineRules(resolved));
  if (errors.length > 0 || isFieldError(location) || !resolved) throw new ValidationError(sortErrors(errors));
  return { location, resolved };
}

async function insertDocument(w: Work, row: Omit<InventoryStockDocument, 'createdAt' | 'actor'>): Promise<InventoryStockDocument> {
  const doc = w.em.create(InventoryStockDocument, { ...row, createdAt: w.now, actor: actorOf(w.actor) });
  await w.em.flush();
  return doc;
}

/** A document's occurredAt (the unit's instant when none is sent) and its business day at the location. */
function header(body: Body, location: StockLocation, now: Date) {
  const occurredAt = body.occurredAt ? new Date(body.occurredAt) : now;
  return { occurredAt, businessDay: businessDayOf(occurredAt.toISOString(), location.timezone, location.cutoff) };
}

/**
 * `POST /inventory/adjustments`: one `adjustment` movement per line (cause stock_adjustment); found
 * stock with a cost moves the weighted average; stock may go negative (a count corrects it).
 */
export async function recordAdjustment(w: Work, body: StockAdjustmentCreate, maxLines: number): Promise<StockAdjustment> {
  const { location, resolved } = await validateDocument(
    w,
    body,
    maxLines,
    (lines) =>
      lines.flatMap((l, i) => {
        const errors: FieldError[] = [];
        const tooBig = baseQuantityError(i, l.base, body.lines[i].unitCost);
        if (tooBig) errors.push(tooBig);
        if (l.item.status === 'archived' && l.base.isPositive() && !l.base.isZero()) {
          errors.push({ path: `lines[${i}].itemId`, message: `Item ${l.item.id} is archived: its stock can only be written off.` });
        }
        return errors;
      }),
    adjustmentLineErrors(body),
  );
  const id = newId('stockAdjustment');
  const { occurredAt, businessDay } = header(body, location, w.now);
  const note = body.note ?? null;
  const inputs: MovementInput[] = resolved.map((l, i) => ({
    itemId: l.item.id,
    locationId: location.id,
    type: 'adjustment',
    quantity: l.base,
    unitCost: body.lines[i].unitCost ?? null,
    cause: { type: 'stock_adjustment', id },
    reason: body.reason,
    note,
    occurredAt,
  }));
  const { movements } = await postMovements(w, inputs);
  const lines: StockDocumentLine[] = movements.map((m, i) => ({
    itemId: m.itemId,
    quantity: body.lines[i].quantity,
    unitId: body.lines[i].unitId ?? null,
    baseQuantity: m.quantity,
    unitCost: m.unitCost,
    value: m.value,
    movementId: m.id,
  }));
  const row = await insertDocument(w, { id, kind: 'adjustment', locationId: location.id, reason: body.reason, note, lines, occurredAt, businessDay });
  return documentDto(row, movements) as StockAdjustment;
}

/**
 * `POST /inventory/waste`: one `waste` movement per line (negative, cause waste_record) valued at
 * the average cost, and `waste.recorded` with the record (base quantities, values, total).
 */
export async function recordWaste(w: Work, body: WasteRecordCreate, maxLines: number): Promise<WasteRecord> {
  const { location, resolved } = await validateDocument(
    w,
    body,
    maxLines,
    (lines) => lines.flatMap((l, i) => baseQuantityError(i, l.base, null) ?? []),
    [],
  );
  const id = newId('wasteRecord');
  const { occurredAt, businessDay } = header(body, location, w.now);
  const note = body.note ?? null;
  const inputs: MovementInput[] = resolved.map((l) => ({
    itemId: l.item.id,
    locationId: location.id,
    type: 'waste',
    quantity: l.base.negated(),
    cause: { type: 'waste_record', id },
    reason: body.reason,
    note,
    occurredAt,
  }));
  const { movements } = await postMovements(w, inputs);
  const lines: StockDocumentLine[] = movements.map((m, i) => ({
    itemId: m.itemId,
    quantity: body.lines[i].quantity,
    unitId: body.lines[i].unitId ?? null,
    baseQuantity: formatQuantity(new Decimal(m.quantity).negated()),
    unitCost: m.unitCost,
    value: m.value === null ? null : formatNullable(new Decimal(m.value).negated()),
    movementId: m.id,
  }));
  const row = await insertDocument(w, { id, kind: 'waste', locationId: location.id, reason: body.reason, note, lines, occurredAt, businessDay });
  const record = documentDto(row, movements) as WasteRecord;
  w.emit({ type: 'waste.recorded', aggregateType: 'waste_record', aggregateId: id, locationId: location.id, object: record });
  return record;
}

export interface DocumentFilter {
  kind: DocumentKind;
  /** null: every location */
  reachable: string[] | null;
  locationId?: string;
  itemId?: string;
  reason?: string;
  from?: string;
  /** id of the last record of the previous page */
  after: string | null;
  limit: number;
}

/** A page of adjustments or waste records (`limit + 1` rows: the caller's toPage tells whether more follow), in id (creation) order. */
export async function listDocuments(w: Work, f: DocumentFilter): Promise<Array<StockAdjustment | WasteRecord>> {
  const { em } = w;
  const where: FilterQuery<InventoryStockDocument>[] = [{ kind: f.kind }];
  if (f.reachable) where.push({ locationId: { $in: f.reachable } });
  if (f.locationId) where.push({ locationId: f.locationId });
  if (f.reason) where.push({ reason: f.reason });
  if (f.from) where.push({ occurredAt: { $gte: new Date(f.from) } });
  if (f.after) where.push({ id: { $gt: f.after } });
  const qb = em.createQueryBuilder(InventoryStockDocument, 'd').select('*').where({ $and: where });
  // raw SQL fragment: jsonb containment (lines @> [{itemId}]), which the ORM has no operator for
  if (f.itemId) qb.andWhere('d.lines @> ?::jsonb', [JSON.stringify([{ itemId: f.itemId }])]);
  const rows = await qb.orderBy({ id: 'asc' }).limit(f.limit + 1).execute<InventoryStockDocument[]>('all', true);
  // the extra row only tells whether more follow: its movements are not needed
  const movements = await movementsOf(w, f.kind === 'adjustment' ? 'stock_adjustment' : 'waste_record', rows.slice(0, f.limit).map((r) => r.id));
  return rows.map((r) => documentDto(r, movements.get(r.id) ?? []));
}

/** The movements of these documents, by document, in append order. */
export async function movementsOf(w: Work, causeType: string, ids: string[]): Promise<Map<string, StockMovement[]>> {
  const out = new Map<string, StockMovement[]>();
  if (ids.length === 0) return out;
  const rows = await findPlain(w.em, InventoryStockMovement, { causeType, causeId: { $in: ids } }, { orderBy: { seq: 'asc' } });
  for (const r of rows) {
    const m = stockMovementDto(r);
    const list = out.get(m.cause.id) ?? [];
    list.push(m);
    out.set(m.cause.id, list);
  }
  return out;
}
