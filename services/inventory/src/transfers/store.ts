import { LockMode } from '@mikro-orm/core';
import type { Transfer, TransferCreate, TransferReceive, TransferStatus } from '@bop/contracts';
import { Conflict, NotFound, ValidationError, actorOf, assertLocationInReach, changedFields, findPage, newId, type FieldError, type ListPage, type PageRequest, type Work, replicaLocationErrors } from '@bop/shared';
import type { ResolvedLine } from '../items/lines';
import { resolveLines } from '../items/lines-store';
import { postMovements, type MovementInput } from '../ledger/store';
import { duplicateItemErrors, matchReceipt, receiveRefusal, receivedLine, receivedStatus, sentLine } from './transfer-rules';
import { transferDto } from './dto';
import { InventoryTransfer } from './entities';

/** Lines resolved to items and base quantities, their errors added to `errors` (null when they have some). */
async function resolveInto(w: Work, lines: Array<{ itemId: string; quantity: string; unitId?: string | null }>, errors: FieldError[], allowArchived: boolean): Promise<ResolvedLine[] | null> {
  return resolveLines(w, lines, { allowArchived }).catch((err: unknown) => {
    if (!(err instanceof ValidationError)) throw err;
    errors.push(...(err.errors ?? []));
    return null;
  });
}

const transferEvent = (type: string, dto: Transfer, locationId: string, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'transfer',
  aggregateId: dto.id,
  locationId,
  object: dto as unknown as Record<string, unknown>,
  ...(previous ? { previous } : {}),
});

export interface TransferFilter {
  locationId?: string;
  /** null: every location */
  reachable: string[] | null;
  status?: TransferStatus;
  from?: string;
  /** the decoded cursor: id of the last transfer of the previous page */
}

/** A page of transfers from or to the locations, in id order (change order with `updatedSince`). */
export async function listTransfers(w: Work, f: TransferFilter, page: PageRequest & { updatedSince?: string }): Promise<ListPage<InventoryTransfer>> {
  const { locationId, reachable, status, from } = f;
  return findPage(
    w.em,
    InventoryTransfer,
    [
      locationId ? { $or: [{ fromLocationId: locationId }, { toLocationId: locationId }] } : reachable && { $or: [{ fromLocationId: { $in: reachable } }, { toLocationId: { $in: reachable } }] },
      status && { status },
      from && { sentAt: { $gte: new Date(from) } },
    ],
    page,
  );
}

export const findTransfer = (w: Work, id: string): Promise<InventoryTransfer | null> => w.em.findOne(InventoryTransfer, { id });

/**
 * `POST /transfers`: `transfer_out` movements at the sender (422 `insufficient_stock` when available
 * stock does not cover a line), each line keeping the sender's cost per base unit at sending;
 * status `in_transit`; `transfer.sent` (at the sending location).
 */
export async function createTransfer(w: Work, body: TransferCreate): Promise<Transfer> {
  const { em } = w;
  const errors: FieldError[] = [];
  if (body.toLocationId === body.fromLocationId) errors.push({ path: 'toLocationId', message: 'Must differ from fromLocationId.' });
  errors.push(
    ...(await replicaLocationErrors(w, [
      { id: body.fromLocationId, path: 'fromLocationId', takes: 'transfers' },
      ...(body.toLocationId === body.fromLocationId ? [] : [{ id: body.toLocationId, path: 'toLocationId', takes: 'transfers' }]),
    ])),
    ...duplicateItemErrors(body.lines),
  );
  const resolved = await resolveInto(w, body.lines, errors, false);
  resolved?.forEach((r, i) => {
    if (r.base.isZero()) errors.push({ path: `lines[${i}].quantity`, message: `Is less than a millionth of the item's base unit (${r.item.baseUnit}).` });
  });
  if (errors.length > 0 || !resolved) throw new ValidationError(errors);

  const id = newId('transfer');
  const inputs: MovementInput[] = resolved.map((r) => ({
    itemId: r.item.id,
    locationId: body.fromLocationId,
    type: 'transfer_out',
    quantity: r.base.negated(),
    cause: { type: 'transfer', id },
    note: body.note ?? null,
    occurredAt: w.now,
  }));
  const posted = await postMovements(w, inputs, { requireAvailable: { path: (i) => `lines[${i}].quantity` } });
  const transfer = em.create(InventoryTransfer, {
    id,
    fromLocationId: body.fromLocationId,
    toLocationId: body.toLocationId,
    status: 'in_transit',
    // the movements come back in input order: each carries the sender's cost at sending
    lines: body.lines.map((l, i) => sentLine(l, resolved[i].base, posted.movements[i].unitCost)),
    note: body.note ?? null,
    receiveNote: null,
    sentAt: w.now,
    receivedAt: null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
    actor: actorOf(w.actor),
  });
  await em.flush();
  const dto = transferDto(transfer);
  w.emit(transferEvent('transfer.sent', dto, transfer.fromLocationId));
  return dto;
}

/**
 * `POST /transfers/{id}:receive`: every sent item answered once; `transfer_in` movements at the
 * receiver at the sender's unit cost (moving the receiver's weighted average); `received` when
 * everything arrived as sent, else `received_with_discrepancy` with each line's difference;
 * `transfer.received` and, on a difference, `transfer.discrepancy` (at the receiving location).
 * The transfer row is locked: a second receipt waits, then gets 409.
 */
export async function receiveTransfer(w: Work, id: string, body: TransferReceive): Promise<Transfer> {
  const { em } = w;
  const transfer = await em.findOne(InventoryTransfer, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!transfer) throw new NotFound('transfer', id);
  assertLocationInReach(w.reach(), transfer.toLocationId);
  w.checkVersion(transfer.version);
  const refusal = receiveRefusal({ id: transfer.id, status: transfer.status as TransferStatus, receivedAt: transfer.receivedAt ?? null });
  if (refusal) throw new Conflict(refusal);

  const { order, errors } = matchReceipt(transfer.lines, body.lines);
  // an item archived while on the way still arrives
  const resolved = await resolveInto(w, body.lines.map((l) => ({ itemId: l.itemId, quantity: l.receivedQuantity, unitId: l.unitId })), errors, true);
  if (errors.length > 0 || !resolved) throw new ValidationError(errors);

  const before = transferDto(transfer);
  const lines = transfer.lines.map((l, i) => receivedLine(l, resolved[order[i]].base));
  const inputs: MovementInput[] = lines.flatMap((l, i) => {
    const base = resolved[order[i]].base;
    if (base.isZero()) return [];
    return [{ itemId: l.itemId, locationId: transfer.toLocationId, type: 'transfer_in' as const, quantity: base, unitCost: l.unitCost, cause: { type: 'transfer' as const, id: transfer.id }, note: body.note ?? null, occurredAt: w.now }];
  });
  await postMovements(w, inputs);
  const status = receivedStatus(lines);
  Object.assign(transfer, { lines, status, receiveNote: body.note ?? null, receivedAt: w.now, version: transfer.version + 1, updatedAt: w.now });
  await em.flush();
  const after = transferDto(transfer);
  const previous = changedFields(before, after);
  const events = [transferEvent('transfer.received', after, transfer.toLocationId, previous)];
  if (status === 'received_with_discrepancy') events.push(transferEvent('transfer.discrepancy', after, transfer.toLocationId, previous));
  for (const event of events) w.emit(event);
  return after;
}
