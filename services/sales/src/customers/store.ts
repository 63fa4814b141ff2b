import { LockMode, UniqueConstraintViolationException, raw, type FilterQuery } from '@mikro-orm/core';
import type { CustomerPatch, CustomerReplace } from '@bop/contracts';
import { Conflict, NotFound, lockForTransaction, actorOf, changedFields, insertEvents, newId, type EntityManager, type Principal } from '@bop/shared';
import { fieldsDiffer, patchFields, replaceFields, type CustomerFields, type CustomerStatus } from './customer-fields';
import { customerDto, fieldsOf } from './dto';
import { SalesCustomer } from './entities';
import { SalesOrder } from '../orders/entities';

interface WriteContext {
  actor: Principal;
  now: Date;
}

/**
 * Serialises everything that hinges on one externalId within a transaction: two first PUTs (one
 * creates, the other replaces), a POST or PATCH claiming it, and an order's link lookup against the
 * customer's creation (so the order either sees the customer or is linked by `linkOrders`).
 */
export async function lockExternalId(em: EntityManager, externalId: string): Promise<void> {
  await lockForTransaction(em, `sales.customers ${JSON.stringify(externalId)}`);
}

/**
 * The customer an online order names: the one whose externalId is the order's `customer.externalId`
 * (externalIds are unique company-wide), or null. Call inside the order's transaction, before locking the order.
 */
export async function customerIdFor(em: EntityManager, externalId: string | null): Promise<string | null> {
  if (externalId === null) return null;
  await lockExternalId(em, externalId);
  const rows = await em.createQueryBuilder(SalesCustomer).select('id').where({ externalId }).execute<Array<{ id: string }>>('all');
  return rows[0]?.id ?? null;
}

/**
 * Links the stored orders that name this externalId and no customer yet (orders often arrive before the
 * customer's sync). Version and updated_at move, so pollers of `updatedSince` see the new customerId.
 */
async function linkOrders(em: EntityManager, customerId: string, externalId: string, now: Date): Promise<void> {
  await em
    .createQueryBuilder(SalesOrder)
    .update({ customerId, version: raw('version + 1'), updatedAt: now })
    .where({ customerId: null, customer: { externalId } })
    .execute();
}

const externalIdTaken = (detail: string) => new Conflict(detail, [{ path: 'externalId', message: 'Already used by another customer.' }]);

async function assertExternalIdFree(em: EntityManager, externalId: string, selfId?: string): Promise<void> {
  const other = await em.findOne(SalesCustomer, { externalId });
  if (other && other.id !== selfId) throw externalIdTaken(`Customer ${other.id} already has externalId ${externalId}.`);
}

/** A unique violation that slipped past the checks (a race) is the same 409 as the check's. */
export function rethrowExternalIdTaken(err: unknown): never {
  if (err instanceof UniqueConstraintViolationException) throw externalIdTaken('Another customer already has this externalId.');
  throw err;
}

function assign(customer: SalesCustomer, f: CustomerFields, now: Date): void {
  const archivedAt = f.status === 'archived' ? (customer.status === 'archived' ? customer.archivedAt : now) : null;
  Object.assign(customer, {
    externalId: f.externalId,
    name: f.name,
    email: f.email,
    phone: f.phone,
    billingAddress: f.billingAddress,
    shippingAddress: f.shippingAddress,
    taxId: f.taxId,
    notes: f.notes,
    status: f.status,
    archivedAt,
  });
}

const eventOf = (type: string, c: SalesCustomer, previous?: Record<string, unknown>) => ({
  type,
  aggregateType: 'customer',
  aggregateId: c.id,
  locationId: null,
  object: customerDto(c),
  ...(previous ? { previous } : {}),
});

/** Creates a customer with `sales.customer.created` (internal: the event catalogue has no customer events). */
export async function createCustomer(em: EntityManager, fields: CustomerFields, w: WriteContext): Promise<SalesCustomer> {
  if (fields.externalId !== null) {
    await lockExternalId(em, fields.externalId);
    await assertExternalIdFree(em, fields.externalId);
  }
  const customer = em.create(SalesCustomer, {
    ...fields,
    id: newId('customer'),
    archivedAt: fields.status === 'archived' ? w.now : null,
    version: 1,
    createdAt: w.now,
    updatedAt: w.now,
  });
  await em.flush();
  if (fields.externalId !== null) await linkOrders(em, customer.id, fields.externalId, w.now);
  await insertEvents(em, 'sales', [eventOf('sales.customer.created', customer)], actorOf(w.actor), w.now);
  return customer;
}

/**
 * Replaces a locked customer's fields with `sales.customer.updated` (data.previous: the old values).
 * Same fields → nothing written: no version, no event. `checkVersion` runs only when something changes.
 */
export async function updateCustomer(em: EntityManager, customer: SalesCustomer, next: CustomerFields, w: WriteContext & { checkVersion: (current: number) => void }): Promise<void> {
  const stored = fieldsOf(customer);
  if (!fieldsDiffer(stored, next)) return;
  w.checkVersion(customer.version);
  const claims = next.externalId !== null && next.externalId !== stored.externalId ? next.externalId : null;
  if (claims !== null) {
    await lockExternalId(em, claims);
    await assertExternalIdFree(em, claims, customer.id);
  }
  const before = customerDto(customer);
  assign(customer, next, w.now);
  customer.version += 1;
  customer.updatedAt = w.now;
  await em.flush();
  if (claims !== null) await linkOrders(em, customer.id, claims, w.now);
  const after = customerDto(customer);
  await insertEvents(em, 'sales', [eventOf('sales.customer.updated', customer, changedFields(before, after))], actorOf(w.actor), w.now);
}

/** `GET /customers`: a page of customers (keyset after `after`, ordered by id), `limit` rows at most. */
export async function listCustomers(em: EntityManager, f: { after?: string | null; email?: string; updatedSince?: string; status?: string }, limit: number): Promise<SalesCustomer[]> {
  const { after, email, updatedSince, status } = f;
  const where: FilterQuery<SalesCustomer> = {};
  if (after) where.id = { $gt: after };
  // emails are stored lower-cased and the filter is lower-cased by the contract: exact, case-insensitive
  if (email) where.email = email;
  if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
  if (status) where.status = status;
  return em.find(SalesCustomer, where, { orderBy: { id: 'asc' }, limit });
}

export const findCustomer = (em: EntityManager, where: { id: string } | { externalId: string }) => em.findOne(SalesCustomer, where);

/** `POST /customers`: a new customer in its own transaction. */
export async function addCustomer(em: EntityManager, fields: CustomerFields, w: WriteContext): Promise<SalesCustomer> {
  return em.transactional((tem) => createCustomer(tem, fields, w)).catch(rethrowExternalIdTaken);
}

/** `PUT /customers/external/{externalId}`: create (201) or replace (200) the customer with this externalId. */
export async function putCustomer(
  em: EntityManager,
  externalId: string,
  body: CustomerReplace,
  w: WriteContext & { checkVersion: (current: number) => void },
): Promise<{ status: number; customer: SalesCustomer }> {
  return em
    .transactional(async (tem) => {
      await lockExternalId(tem, externalId);
      const existing = await tem.findOne(SalesCustomer, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!existing) return { status: 201, customer: await createCustomer(tem, replaceFields(body, externalId, null), w) };
      await updateCustomer(tem, existing, replaceFields(body, externalId, existing.status as CustomerStatus), w);
      return { status: 200, customer: existing };
    })
    .catch(rethrowExternalIdTaken);
}

/** `PATCH /customers/{id}`: the customer with the patch applied. */
export async function patchCustomer(em: EntityManager, id: string, patch: CustomerPatch, w: WriteContext & { checkVersion: (current: number) => void }): Promise<SalesCustomer> {
  return em
    .transactional(async (tem) => {
      // a claimed externalId's lock before the row's, in the order PUT takes them (no deadlock)
      if (patch.externalId) await lockExternalId(tem, patch.externalId);
      const found = await tem.findOne(SalesCustomer, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) throw new NotFound('customer', id);
      // If-Match guards a person's edit even when it turns out to change nothing
      w.checkVersion(found.version);
      await updateCustomer(tem, found, patchFields(fieldsOf(found), patch), w);
      return found;
    })
    .catch(rethrowExternalIdTaken);
}
