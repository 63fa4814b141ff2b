import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { CustomerAddress } from './customer-fields';

/** A customer master record (supplement: /customers); externalId unique company-wide when set. */
export const SalesCustomer = defineEntity({
  name: 'SalesCustomer',
  tableName: 'customers',
  properties: {
    id: p.string().primary(),
    externalId: p.string().nullable(),
    name: p.string(),
    /** lower-cased */
    email: p.string().nullable(),
    phone: p.string().nullable(),
    billingAddress: p.json<CustomerAddress>().nullable(),
    shippingAddress: p.json<CustomerAddress>().nullable(),
    taxId: p.string().nullable(),
    notes: p.string().nullable(),
    status: p.string(),
    archivedAt: p.datetime().nullable(),
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SalesCustomer = InferEntity<typeof SalesCustomer>;

// customers: entities of this area, added to the service's list in ../index.ts
export const customersEntities = [SalesCustomer] as const;
