import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { assertCompanyWide, NotFound, decodeCursor, pageLimit, route, toPage, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';
import { createFields, patchFields, replaceFields, type CustomerStatus } from './domain';
import { customerDto, fieldsOf } from './dto';
import { SalesCustomer } from './entities';
import { createCustomer, lockExternalId, rethrowExternalIdTaken, updateCustomer } from './store';

/** Permission catalogue: customers.read / customers.manage reach Everyone only (customers belong to the company, not a location). */
/** customer master records (supplement: Sales lists, orders and invoices, /customers) */
export const customerRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /customers', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const { limit, cursor, email, updatedSince, status } = ctx.query;
    const where: FilterQuery<SalesCustomer> = {};
    const after = decodeCursor(cursor);
    if (after) where.id = { $gt: after };
    // emails are stored lower-cased and the filter is lower-cased by the contract: exact, case-insensitive
    if (email) where.email = email;
    if (updatedSince) where.updatedAt = { $gte: new Date(updatedSince) };
    if (status) where.status = status;
    const n = pageLimit(limit);
    const rows = await ctx.em.find(SalesCustomer, where, { orderBy: { id: 'asc' }, limit: n + 1 });
    return { body: toPage(rows, n, customerDto) };
  }),

  route('POST /customers', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const customer = await ctx.em
      .transactional((tem) => createCustomer(tem, createFields(ctx.body), { actor: ctx.principal, now: new Date() }))
      .catch(rethrowExternalIdTaken);
    return { status: 201, body: customerDto(customer), headers: { Location: `/api/v1/customers/${customer.id}` } };
  }),

  route('GET /customers/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const customer = await ctx.em.findOne(SalesCustomer, { externalId: ctx.params.externalId });
    if (!customer) throw new NotFound('customer with externalId', ctx.params.externalId);
    return { body: customerDto(customer) };
  }),

  // supplement: create or replace; the same content again answers 200 with the stored record (no version, no event)
  route('PUT /customers/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const { externalId } = ctx.params;
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const result = await ctx.em
      .transactional(async (tem) => {
        await lockExternalId(tem, externalId);
        const existing = await tem.findOne(SalesCustomer, { externalId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!existing) return { status: 201, customer: await createCustomer(tem, replaceFields(ctx.body, externalId, null), w) };
        await updateCustomer(tem, existing, replaceFields(ctx.body, externalId, existing.status as CustomerStatus), w);
        return { status: 200, customer: existing };
      })
      .catch(rethrowExternalIdTaken);
    return { status: result.status, body: customerDto(result.customer) };
  }),

  route('GET /customers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const customer = await ctx.em.findOne(SalesCustomer, { id: ctx.params.id });
    if (!customer) throw new NotFound('customer', ctx.params.id);
    return { body: customerDto(customer) };
  }),

  route('PATCH /customers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const w = { actor: ctx.principal, now: new Date(), checkVersion: (v: number) => ctx.checkVersion(v) };
    const customer = await ctx.em
      .transactional(async (tem) => {
        // a claimed externalId's lock before the row's, in the order PUT takes them (no deadlock)
        if (ctx.body.externalId) await lockExternalId(tem, ctx.body.externalId);
        const found = await tem.findOne(SalesCustomer, { id: ctx.params.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!found) throw new NotFound('customer', ctx.params.id);
        // If-Match guards a person's edit even when it turns out to change nothing
        ctx.checkVersion(found.version);
        await updateCustomer(tem, found, patchFields(fieldsOf(found), ctx.body), w);
        return found;
      })
      .catch(rethrowExternalIdTaken);
    return { body: customerDto(customer) };
  }),
];
