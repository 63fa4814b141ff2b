import Decimal from 'decimal.js';
import { LockMode } from '@mikro-orm/core';
import type { z } from 'zod';
import {
  RECEIPT_RECORDED,
  type PurchaseOrderListQuery,
  type PurchaseOrder,
  type PurchaseOrderCreate,
  type PurchaseOrderReceipt,
  type PurchaseOrderReceive,
  type PurchaseOrderStatus,
  type ReceiptRecordedObject,
  type ItemsResolveAnswer,
} from '@bop/contracts';
import { mapPage, findPage, Conflict, NotFound, ValidationError, actorOf, callCommand, assertLocationInReach, changedFields, type ListPage, insertEvents, newId, replicaLocationErrors, sqlQuery, type EntityManager, type FieldError, type Principal, type ReachSet, type ServiceClient } from '@bop/shared';
import { fmtAmount, fmtQuantity, round6 } from '@bop/shared';
import { catalogOf, orderableSupplier } from '../suppliers/store';
import { needsApproval, transitionRefusal, type OrderAction } from './order-rules';
import { purchaseOrderDto } from './dto';
import { PurchaseOrderEntity, type StoredOrderLine } from './entities';

export interface WriteContext {
  actor: Principal;
  now: Date;
}

/** Creating an order also asks inventory about its items. */
export interface CreateContext extends WriteContext {
  services: ServiceClient;
  requestId?: string;
}

/** Future receipt times are refused beyond this clock skew. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

const orderEvent = (type: string, dto: PurchaseOrder, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'purchase_order',
  aggregateId: dto.id,
  locationId: dto.locationId,
  object: dto as unknown as Record<string, unknown>,
  ...(previous ? { previous } : {}),
});

/** `GET /purchase-orders`: the orders at `inLocations` (undefined: every location), oldest first, by cursor. */
export async function listOrders(em: EntityManager, inLocations: string | { $in: string[] } | undefined, q: z.output<typeof PurchaseOrderListQuery>): Promise<ListPage<PurchaseOrder>> {
  const { limit, cursor, status, supplierId, number, updatedSince } = q;
  const page = await findPage(
    em,
    PurchaseOrderEntity,
    [
      inLocations && { locationId: inLocations },
      status && { status },
      supplierId && { supplierId },
      number && { number },
      updatedSince && { updatedAt: { $gte: new Date(updatedSince) } },
    ],
    { limit, cursor },
  );
  return mapPage(page, purchaseOrderDto);
}

/** One order, or 404. */
export async function getOrder(em: EntityManager, id: string): Promise<PurchaseOrderEntity> {
  const order = await em.findOne(PurchaseOrderEntity, { id });
  if (!order) throw new NotFound('purchase order', id);
  return order;
}

/** Orders whose outstanding packs are still on the way (a draft counts: it is about to be ordered). */
const OPEN = ['draft', 'approved', 'sent', 'partially_received'];

/** The lines of a location's open orders of every supplier (what is on order, for suggested orders). */
export async function openOrderLines(em: EntityManager, locationId: string): Promise<Array<{ lines: StoredOrderLine[] }>> {
  return em.createQueryBuilder(PurchaseOrderEntity).select('lines').where({ locationId, status: { $in: OPEN } }).execute<Array<{ lines: StoredOrderLine[] }>>('all', true);
}

/**
 * `POST /purchase-orders`: a draft at a location the person reaches, from a supplier that delivers
 * there; every line is a line of the supplier's catalog (by supplier code or item, once each), at
 * least its minimum order quantity, priced from the catalog unless the line agrees another price.
 * The catalog line's pack and conversion are copied into the order. `purchase_order.created`.
 */
export const createOrderInTransaction = (em: EntityManager, body: PurchaseOrderCreate, reach: ReachSet, w: CreateContext): Promise<PurchaseOrder> => em.transactional((tem) => createOrder(tem, body, reach, w));

export async function createOrder(em: EntityManager, body: PurchaseOrderCreate, reach: ReachSet, w: CreateContext): Promise<PurchaseOrder> {
  assertLocationInReach(reach, body.locationId);
  const locationErrors = await replicaLocationErrors(em, 'purchasing', [{ id: body.locationId, path: 'locationId', takes: 'orders' }]);
  if (locationErrors.length > 0) throw new ValidationError(locationErrors);
  const supplier = await orderableSupplier(em, body.supplierId, body.locationId);
  const catalog = (await catalogOf(em, supplier.id))?.lines ?? [];

  const errors: FieldError[] = [];
  const taken = new Map<string, number>();
  const lines: StoredOrderLine[] = [];
  body.lines.forEach((l, i) => {
    if (!l.supplierItemCode && !l.itemId) {
      errors.push({ path: `lines[${i}]`, message: 'Name the catalog line: supplierItemCode or itemId.' });
      return;
    }
    const byCode = l.supplierItemCode ? catalog.find((c) => c.supplierItemCode.toLowerCase() === l.supplierItemCode!.toLowerCase()) : undefined;
    const byItem = l.itemId ? catalog.find((c) => c.itemId === l.itemId) : undefined;
    if (l.supplierItemCode && !byCode) return void errors.push({ path: `lines[${i}].supplierItemCode`, message: `Not in supplier ${supplier.id}'s catalog.` });
    if (l.itemId && !byItem) return void errors.push({ path: `lines[${i}].itemId`, message: `Item ${l.itemId} is not in supplier ${supplier.id}'s catalog.` });
    if (byCode && byItem && byCode !== byItem) return void errors.push({ path: `lines[${i}].itemId`, message: `Supplier code ${l.supplierItemCode} is item ${byCode.itemId}, not ${l.itemId}.` });
    const c = (byCode ?? byItem)!;
    if (taken.has(c.supplierItemCode)) return void errors.push({ path: `lines[${i}]`, message: `Catalog line ${c.supplierItemCode} is also on line ${taken.get(c.supplierItemCode)}; order it once.` });
    taken.set(c.supplierItemCode, i);
    if (new Decimal(l.quantity).lessThan(c.minimumOrderQuantity)) {
      return void errors.push({ path: `lines[${i}].quantity`, message: `Below the supplier's minimum order of ${c.minimumOrderQuantity} packs for ${c.supplierItemCode}.` });
    }
    const unitPrice = l.unitPrice ?? c.price;
    lines.push({
      id: newId('purchaseOrderLine'),
      supplierItemCode: c.supplierItemCode,
      itemId: c.itemId,
      description: c.description ?? c.itemName,
      packSize: c.packSize,
      unitId: c.unitId,
      baseQuantityPerPack: c.baseQuantityPerPack,
      quantity: fmtQuantity(l.quantity),
      unitPrice: fmtQuantity(unitPrice),
      amount: fmtAmount(new Decimal(l.quantity).times(unitPrice)),
      receivedQuantity: '0',
      receivedAmount: '0.00',
    });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  await refuseArchivedItems(w, body, lines);

  // raw SQL: the next value of a sequence (the ORM has no query for it)
  const [{ n }] = await sqlQuery<{ n: string }>(em, `select nextval('"purchasing"."purchase_order_number_seq"')::text as "n"`);
  const total = lines.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  const order = em.create(PurchaseOrderEntity, {
    id: newId('purchaseOrder'),
    number: `PO-${n.padStart(6, '0')}`,
    supplierId: supplier.id,
    locationId: body.locationId,
    status: 'draft',
    expectedDeliveryDate: body.expectedDeliveryDate ?? null,
    note: body.note ?? null,
    lines,
    total: fmtAmount(total),
    receipts: [],
    createdBy: actorOf(w.actor),
    approvedAt: null,
    approvedBy: null,
    approvalNote: null,
    sentAt: null,
    receivedAt: null,
    cancelledAt: null,
    cancelReason: null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  await em.flush();
  const dto = purchaseOrderDto(order);
  await insertEvents(em, 'purchasing', [orderEvent('purchase_order.created', dto)], actorOf(w.actor), w.now);
  return dto;
}

/**
 * spec: an archived item is "no longer orderable". The catalog line copied its item when it was
 * written; whether the item is archived now is asked of its owner, inventory, at this write (422 at
 * the order line: `itemId`, or `supplierItemCode` when the line named the catalog line by code).
 */
async function refuseArchivedItems(w: CreateContext, body: PurchaseOrderCreate, lines: StoredOrderLine[]): Promise<void> {
  try {
    await callCommand<ItemsResolveAnswer>(w.services, 'inventory', 'POST', '/internal/items:resolve', { lines: lines.map((l) => ({ itemId: l.itemId, unitId: null })) }, {
      what: 'check the ordered items',
      ok: [200],
      fieldPrefix: '',
      requestId: w.requestId,
    });
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    throw new ValidationError(
      (err.errors ?? []).map((e) => {
        const i = Number(/^lines\[(\d+)\]/.exec(e.path)?.[1]);
        return body.lines[i] && !body.lines[i].itemId ? { path: `lines[${i}].supplierItemCode`, message: e.message } : e;
      }),
    );
  }
}

export interface ActionContext extends WriteContext {
  reach: ReachSet;
  checkVersion: (v: number) => void;
}

/** The order locked for an action in the person's reach, If-Match checked, 409 when its state does not allow the action. */
async function orderFor(em: EntityManager, id: string, action: OrderAction, c: ActionContext): Promise<PurchaseOrderEntity> {
  const order = await em.findOne(PurchaseOrderEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!order) throw new NotFound('purchase order', id);
  assertLocationInReach(c.reach, order.locationId);
  c.checkVersion(order.version);
  const refusal = transitionRefusal(action, order.number, order.status as PurchaseOrderStatus);
  if (refusal) throw new Conflict(refusal);
  return order;
}

async function finish(em: EntityManager, order: PurchaseOrderEntity, before: PurchaseOrder, type: string, c: WriteContext, extra: Array<ReturnType<typeof orderEvent> | InternalEvent> = []): Promise<PurchaseOrder> {
  order.version += 1;
  order.updatedAt = c.now;
  await em.flush();
  const after = purchaseOrderDto(order);
  await insertEvents(em, 'purchasing', [orderEvent(type, after, changedFields(before, after)), ...extra], actorOf(c.actor), c.now);
  return after;
}

interface InternalEvent {
  type: string;
  aggregateType: string;
  aggregateId: string;
  locationId: string;
  object: Record<string, unknown>;
}

/** `:approve`: draft → approved (`purchase_order.approved`). */
export const approveOrderInTransaction = (em: EntityManager, id: string, note: string | null, c: ActionContext): Promise<PurchaseOrder> => em.transactional((tem) => approveOrder(tem, id, note, c));

export async function approveOrder(em: EntityManager, id: string, note: string | null, c: ActionContext): Promise<PurchaseOrder> {
  const order = await orderFor(em, id, 'approve', c);
  const before = purchaseOrderDto(order);
  Object.assign(order, { status: 'approved', approvedAt: c.now, approvedBy: actorOf(c.actor), approvalNote: note });
  return finish(em, order, before, 'purchase_order.approved', c);
}

/** `:send`: approved → sent; a draft only when its total is within the approval threshold (else 409). `purchase_order.sent`. */
export const sendOrderInTransaction = (em: EntityManager, id: string, threshold: string, c: ActionContext): Promise<PurchaseOrder> => em.transactional((tem) => sendOrder(tem, id, threshold, c));

export async function sendOrder(em: EntityManager, id: string, threshold: string, c: ActionContext): Promise<PurchaseOrder> {
  const order = await orderFor(em, id, 'send', c);
  if (order.status === 'draft' && needsApproval(order.total, threshold)) {
    throw new Conflict(`Purchase order ${order.number} totals ${fmtAmount(order.total)}, above the company's approval threshold of ${fmtAmount(threshold)}: approve it first (:approve).`);
  }
  const before = purchaseOrderDto(order);
  Object.assign(order, { status: 'sent', sentAt: c.now });
  return finish(em, order, before, 'purchase_order.sent', c);
}

/** `:cancel`: draft, approved or sent with nothing received → cancelled (final). */
export const cancelOrderInTransaction = (em: EntityManager, id: string, reason: string | null, c: ActionContext): Promise<PurchaseOrder> => em.transactional((tem) => cancelOrder(tem, id, reason, c));

export async function cancelOrder(em: EntityManager, id: string, reason: string | null, c: ActionContext): Promise<PurchaseOrder> {
  const order = await orderFor(em, id, 'cancel', c);
  Object.assign(order, { status: 'cancelled', cancelledAt: c.now, cancelReason: reason, version: order.version + 1, updatedAt: c.now });
  await em.flush();
  // the catalogue has no purchase_order.cancelled event (spec: purchasing events; supplement: none); version and updatedAt tell pollers
  return purchaseOrderDto(order);
}

/**
 * `:receive`: sent or partially received. Each received line names an order line (by id, supplier
 * code or item; once each) with the packs that arrived and the price actually charged (default: the
 * order's). Base quantities and the cost per base unit follow from the order line's pack. The order
 * becomes `received` (final) when every line has arrived in full or the receipt is `final`, else
 * `partially_received`. `purchase_order.received`; inventory books the stock from the internal
 * `purchasing.receipt.recorded` event written in the same transaction (contracts/purchasing/internal.ts).
 */
export const receiveOrderInTransaction = (em: EntityManager, id: string, body: PurchaseOrderReceive, c: ActionContext): Promise<PurchaseOrder> =>
  em.transactional((tem) => receiveOrder(tem, id, body, c));

export async function receiveOrder(em: EntityManager, id: string, body: PurchaseOrderReceive, c: ActionContext): Promise<PurchaseOrder> {
  const receivedAt = body.receivedAt ? new Date(body.receivedAt) : c.now;
  if (receivedAt.getTime() > c.now.getTime() + FUTURE_TOLERANCE_MS) throw new ValidationError([{ path: 'receivedAt', message: 'Is in the future.' }]);
  const order = await orderFor(em, id, 'receive', c);
  if (order.sentAt && receivedAt < order.sentAt) throw new ValidationError([{ path: 'receivedAt', message: `Is before the order was sent (${order.sentAt.toISOString()}).` }]);

  const errors: FieldError[] = [];
  const input = body.lines ?? [];
  const seen = new Map<string, number>();
  const matched: Array<{ line: StoredOrderLine; qty: Decimal; price: string }> = [];
  input.forEach((l, i) => {
    if (!l.lineId && !l.supplierItemCode && !l.itemId) return void errors.push({ path: `lines[${i}]`, message: 'Name the order line: lineId, supplierItemCode or itemId.' });
    const candidates = order.lines.filter(
      (ol) => (!l.lineId || ol.id === l.lineId) && (!l.supplierItemCode || ol.supplierItemCode.toLowerCase() === l.supplierItemCode.toLowerCase()) && (!l.itemId || ol.itemId === l.itemId),
    );
    if (candidates.length !== 1) {
      const field = l.lineId ? 'lineId' : l.supplierItemCode ? 'supplierItemCode' : 'itemId';
      return void errors.push({ path: `lines[${i}].${field}`, message: `No line of order ${order.number} matches.` });
    }
    const line = candidates[0];
    if (seen.has(line.id)) return void errors.push({ path: `lines[${i}]`, message: `Order line ${line.supplierItemCode} is also on line ${seen.get(line.id)}; receive it once per delivery.` });
    seen.set(line.id, i);
    matched.push({ line, qty: new Decimal(l.quantity), price: l.unitPrice ?? line.unitPrice });
  });
  if (errors.length > 0) throw new ValidationError(errors);
  const arrived = matched.filter((m) => m.qty.greaterThan(0));
  if (arrived.length === 0 && !body.final) throw new ValidationError([{ path: 'lines', message: 'Receive at least one pack, or send "final": true to close the order without more.' }]);
  // closing as received an order of which nothing ever arrived would be a cancellation in disguise
  if (arrived.length === 0 && order.receipts.every((r) => r.lines.length === 0)) {
    throw new Conflict(`Nothing of purchase order ${order.number} has arrived; cancel it (:cancel) rather than close it as received.`);
  }

  const before = purchaseOrderDto(order);
  const receiptId = newId('purchaseReceipt');
  const receiptLines: PurchaseOrderReceipt['lines'] = arrived.map(({ line, qty, price }) => {
    const baseQuantity = round6(qty.times(line.baseQuantityPerPack));
    return {
      lineId: line.id,
      itemId: line.itemId,
      quantity: fmtQuantity(qty),
      unitPrice: fmtQuantity(price),
      amount: fmtAmount(qty.times(price)),
      baseQuantity: fmtQuantity(baseQuantity),
      unitCost: fmtQuantity(round6(new Decimal(price).div(line.baseQuantityPerPack))),
    };
  });
  const byLine = new Map(receiptLines.map((r) => [r.lineId, r]));
  order.lines = order.lines.map((l) => {
    const r = byLine.get(l.id);
    if (!r) return l;
    return { ...l, receivedQuantity: fmtQuantity(new Decimal(l.receivedQuantity).plus(r.quantity)), receivedAmount: fmtAmount(new Decimal(l.receivedAmount).plus(r.amount)) };
  });
  const complete = order.lines.every((l) => new Decimal(l.receivedQuantity).greaterThanOrEqualTo(l.quantity));
  const final = Boolean(body.final) || complete;
  order.receipts = [...order.receipts, { id: receiptId, receivedAt: receivedAt.toISOString(), note: body.note ?? null, final, lines: receiptLines, actor: actorOf(c.actor) }];
  order.status = final ? 'received' : 'partially_received';
  if (final) order.receivedAt = receivedAt;

  const stock: ReceiptRecordedObject = {
    id: receiptId,
    purchaseOrderId: order.id,
    supplierId: order.supplierId,
    locationId: order.locationId,
    receivedAt: receivedAt.toISOString(),
    note: body.note ?? null,
    lines: receiptLines.map((r) => ({ itemId: r.itemId, quantity: r.baseQuantity, unitCost: r.unitCost, value: r.amount })),
  };
  const internal: InternalEvent[] =
    receiptLines.length === 0 ? [] : [{ type: RECEIPT_RECORDED, aggregateType: 'purchase_order', aggregateId: order.id, locationId: order.locationId, object: stock as unknown as Record<string, unknown> }];
  return finish(em, order, before, 'purchase_order.received', c, internal);
}
