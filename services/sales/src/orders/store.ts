import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { findPage, type ListPage, type PageRequest, assertLocationInReach, lockForTransaction, NotFound, type locationFilter, Conflict, ValidationError, changedFields, newId, type EventInput, type Work } from '@bop/shared';
import { customerIdFor } from '../customers/store';
import { recordUnmatched, resolveItemRefs, type UnmatchedLine } from '../items/store';
import { decidePut, type NormalizedOrder, type OrderLine, type OrderStatus } from './order-rules';
import { orderDto } from './dto';
import { SalesOrder } from './entities';


export interface PutOrderInput {
  source: string;
  externalId: string;
  order: NormalizedOrder;
  /** the fulfilling location; `archived` refuses it for new orders and moves (path: the reference sent) */
  location: { id: string; archived: boolean; path: string };
}

const unmatchedOf = (lines: OrderLine[]): UnmatchedLine[] =>
  lines.filter((l) => l.itemId === null).map((l) => ({ itemExternalId: l.itemExternalId, itemSku: l.itemSku, itemBarcode: l.itemBarcode, name: l.name }));

/** spec: ingestion rule 3, each line's item from mappings and the item replica; null stays unmatched. */
async function matchLines(w: Work, source: string, lines: OrderLine[]): Promise<OrderLine[]> {
  const itemIds = await resolveItemRefs(w, source, lines.map((l) => ({ itemExternalId: l.itemExternalId, itemSku: l.itemSku, itemBarcode: l.itemBarcode })));
  return lines.map((l, i) => ({ ...l, itemId: itemIds[i] ?? null }));
}

function refuseArchived(location: PutOrderInput['location']): void {
  if (location.archived) throw new ValidationError([{ path: location.path, message: `Location ${location.id} is archived: it fulfils no new orders.` }]);
}

/**
 * `PUT /sales-orders/external/{externalId}` in the unit's transaction: create, replace, payment-only update of a
 * final order, or nothing (same content), with item matching, the unmapped-items queue and the events.
 * If-Match (409 `version_mismatch`) is checked only when the order is about to change.
 */
export async function putOrder(w: Work, input: PutOrderInput): Promise<{ status: 200 | 201; order: ReturnType<typeof orderDto> }> {
  const { source, externalId, order: sent, location } = input;
  const { em, now } = w;
  // items first: the item-mapping lock before the order's, in the order `:map` would take them (no deadlock)
  const lines = await matchLines(w, source, sent.lines);
  // the customer's externalId lock before the order's: a customer created meanwhile links this order itself
  const sentCustomerExternalId = sent.content.customer?.externalId ?? null;
  const customerId = await customerIdFor(w, sentCustomerExternalId);
  // serialises concurrent first PUTs of one (source, externalId): one creates, the other sees it
  await lockForTransaction(em, `${w.schema}.orders ${JSON.stringify([source, externalId])}`);
  const existing = await em.findOne(SalesOrder, { source, externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const stored = existing && { status: existing.status as OrderStatus, contentHash: existing.contentHash, coreHash: existing.coreHash, paymentStatus: existing.paymentStatus ?? null };
  const decision = decidePut(stored, { contentHash: sent.contentHash, coreHash: sent.coreHash, status: sent.content.status, paymentStatus: sent.content.paymentStatus });
  const events: EventInput[] = [];
  const eventOf = (type: string, o: SalesOrder, previous?: Record<string, unknown>): EventInput => ({
    type, aggregateType: 'sales_order', aggregateId: o.id, locationId: o.locationId, object: orderDto(o), ...(previous ? { previous } : {}),
  });
  const seenAt = sent.content.placedAt ?? now.toISOString();

  if (decision.kind === 'conflict') throw new Conflict(decision.detail);
  if (decision.kind === 'unchanged') return { status: 200, order: orderDto(existing!) };

  if (decision.kind === 'create') {
    refuseArchived(location);
    const cancelled = sent.content.status === 'cancelled';
    const created = em.create(SalesOrder, {
      id: newId('salesOrder'),
      source,
      externalId,
      ...fieldsOf(sent, lines),
      customerId,
      status: sent.content.status,
      cancelledAt: cancelled ? now : null,
      cancelReason: sent.content.cancelReason,
      reservations: [],
      reservedAt: null,
      shipment: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    // spec: Sales order (none) → open: `sales_order.created`; `sales.unmapped_item` for unmatched lines
    events.push(eventOf('sales_order.created', created));
    events.push(...(await recordUnmatched(w, source, [{ recordId: created.id, locationId: created.locationId, seenAt, lines: unmatchedOf(lines), before: null }])));
    for (const e of events) w.emit(e);
    return { status: 201, order: orderDto(created) };
  }

  const order = existing!;
  if (decision.kind === 'payment') {
    // a final order: only paymentStatus moves (e.g. refunded after cancelling); no state event
    if (!decision.touch) {
      w.checkVersion(order.version);
      order.paymentStatus = sent.content.paymentStatus;
      order.version += 1;
      order.updatedAt = now;
    }
    order.contentHash = sent.contentHash;
    await em.flush();
    return { status: 200, order: orderDto(order) };
  }

  // spec: Ingested record, stored → same record sent again with changes → updated
  w.checkVersion(order.version);
  if (location.id !== order.locationId) refuseArchived(location);
  const before = orderDto(order);
  const unmatchedBefore = unmatchedOf(order.lines);
  // a link stays while the order names the same customer externalId (the customer may have moved to another one since)
  const sameCustomer = order.customerId != null && (order.customer?.externalId ?? null) === sentCustomerExternalId;
  Object.assign(order, fieldsOf(sent, lines), { customerId: sameCustomer ? order.customerId : customerId });
  if (decision.cancels) {
    order.status = 'cancelled';
    // inventory releases what it held on `sales_order.cancelled`
    order.reservations = [];
    order.cancelledAt = now;
    order.cancelReason = sent.content.cancelReason;
  }
  order.version += 1;
  order.updatedAt = now;
  await em.flush();
  // spec: Sales order stored → re-sent with status cancelled → cancelled: `sales_order.cancelled`
  if (decision.cancels) events.push(eventOf('sales_order.cancelled', order, changedFields(before, orderDto(order))));
  events.push(...(await recordUnmatched(w, source, [{ recordId: order.id, locationId: order.locationId, seenAt, lines: unmatchedOf(lines), before: unmatchedBefore }])));
  for (const e of events) w.emit(e);
  return { status: 200, order: orderDto(order) };
}

/** The columns a PUT sets from what was sent (state and bookkeeping aside). */
function fieldsOf(sent: NormalizedOrder, lines: OrderLine[]) {
  const c = sent.content;
  return {
    locationId: c.locationId,
    customer: c.customer,
    placedAt: c.placedAt === null ? null : new Date(c.placedAt),
    lines,
    shipping: c.shipping,
    paymentStatus: c.paymentStatus,
    currency: c.currency,
    subtotal: sent.subtotal,
    taxTotal: sent.taxTotal,
    shippingTotal: sent.shippingTotal,
    total: sent.total,
    contentHash: sent.contentHash,
    coreHash: sent.coreHash,
  };
}

/** `GET /sales-orders`: a page of orders by id, or, with `updatedSince`, in change order (commit-safe: findPage). */
export async function listOrders(
  w: Work,
  f: { status?: string; source?: string; inLocations?: ReturnType<typeof locationFilter> },
  page: PageRequest & { updatedSince?: string },
): Promise<ListPage<SalesOrder>> {
  const { status, source, inLocations } = f;
  return findPage(w.em, SalesOrder, [status && { status }, source && { source }, inLocations && { locationId: inLocations }], page);
}

/** The orders of every source (or of `source`) with this externalId, by source. */
export async function ordersByExternalId(w: Work, externalId: string, source: string | undefined): Promise<SalesOrder[]> {
  const where: FilterQuery<SalesOrder> = { externalId };
  if (source) where.source = source;
  return w.em.find(SalesOrder, where, { orderBy: { source: 'asc' } });
}

export const findOrder = (w: Work, id: string) => w.em.findOne(SalesOrder, { id });

/**
 * A command on one order: locked (a concurrent command waits, inventory's answer included), in the
 * caller's reach, at the If-Match version, allowed in its state; `apply` changes it; version,
 * updated_at and the event (with the changed fields) follow, in the unit's transaction.
 */
export async function orderCommand(
  w: Work,
  id: string,
  refusalOf: (status: OrderStatus) => string | null,
  eventType: 'sales_order.shipped' | 'sales_order.cancelled' | null,
  apply: (order: SalesOrder, now: Date) => Promise<void>,
) {
  const { em, now } = w;
  const reach = w.reach();
  const order = await em.findOne(SalesOrder, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!order) throw new NotFound('sales order', id);
  assertLocationInReach(reach, order.locationId);
  w.checkVersion(order.version);
  const refusal = refusalOf(order.status as OrderStatus);
  if (refusal) throw new Conflict(refusal);
  const before = orderDto(order);
  await apply(order, now);
  order.version += 1;
  order.updatedAt = now;
  await em.flush();
  const after = orderDto(order);
  if (eventType) w.emit({ type: eventType, aggregateType: 'sales_order', aggregateId: order.id, locationId: order.locationId, object: after, previous: changedFields(before, after) });
  return after;
}
