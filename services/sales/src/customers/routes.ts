import { assertCompanyWide, NotFound, mapPage, route, type RouteDef, type ServiceRuntime } from '@bop/shared';
import type { SalesConfig } from '../config';
import { createFields } from './customer-fields';
import { customerDto } from './dto';
import { addCustomer, customerConflictFor, findCustomer, listCustomers, patchCustomer, putCustomer } from './store';

/** Permission catalogue: customers.read / customers.manage reach Everyone only (customers belong to the company, not a location). */
/** customer master records (supplement: Sales lists, orders and invoices, /customers) */
export const customerRoutes = (_svc: ServiceRuntime<SalesConfig>): RouteDef[] => [
  route('GET /customers', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const { limit, cursor, email, updatedSince, status } = ctx.query;
    return { body: mapPage(await listCustomers(ctx, { email, status }, { limit, cursor, updatedSince }), customerDto) };
  }),

  route(
    'POST /customers',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Customers');
      const customer = await addCustomer(ctx, createFields(ctx.body));
      return { status: 201, body: customerDto(customer), headers: { Location: `/api/v1/customers/${customer.id}` } };
    },
    { conflict: customerConflictFor },
  ),

  route('GET /customers/external/{externalId}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const customer = await findCustomer(ctx, { externalId: ctx.params.externalId });
    if (!customer) throw new NotFound('customer with externalId', ctx.params.externalId);
    return { body: customerDto(customer) };
  }),

  // supplement: create or replace; the same content again answers 200 with the stored record (no version, no event)
  route(
    'PUT /customers/external/{externalId}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Customers');
      const result = await putCustomer(ctx, ctx.params.externalId, ctx.body);
      return { status: result.status, body: customerDto(result.customer) };
    },
    { conflict: customerConflictFor },
  ),

  route('GET /customers/{id}', async (ctx) => {
    assertCompanyWide(ctx.reach(), 'Customers');
    const customer = await findCustomer(ctx, { id: ctx.params.id });
    if (!customer) throw new NotFound('customer', ctx.params.id);
    return { body: customerDto(customer) };
  }),

  route(
    'PATCH /customers/{id}',
    async (ctx) => {
      assertCompanyWide(ctx.reach(), 'Customers');
      const customer = await patchCustomer(ctx, ctx.params.id, ctx.body);
      return { body: customerDto(customer) };
    },
    { conflict: customerConflictFor },
  ),
];
