import type { Customer as CustomerDto } from '@bop/contracts';
import { address, type CustomerFields, type CustomerStatus } from './customer-fields';
import type { SalesCustomer } from './entities';

/** The customer record (API and `data.object` of its events). */
export function customerDto(c: SalesCustomer): CustomerDto {
  return {
    id: c.id,
    externalId: c.externalId ?? null,
    name: c.name,
    email: c.email ?? null,
    phone: c.phone ?? null,
    billingAddress: address(c.billingAddress),
    shippingAddress: address(c.shippingAddress),
    taxId: c.taxId ?? null,
    notes: c.notes ?? null,
    status: c.status as CustomerDto['status'],
    archivedAt: c.archivedAt ? c.archivedAt.toISOString() : null,
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The stored record's writer-controlled fields, to compare with what was sent. */
export function fieldsOf(c: SalesCustomer): CustomerFields {
  return {
    externalId: c.externalId ?? null,
    name: c.name,
    email: c.email ?? null,
    phone: c.phone ?? null,
    billingAddress: address(c.billingAddress),
    shippingAddress: address(c.shippingAddress),
    taxId: c.taxId ?? null,
    notes: c.notes ?? null,
    status: c.status as CustomerStatus,
  };
}
