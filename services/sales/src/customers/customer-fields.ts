import type { CustomerCreate, CustomerPatch, CustomerReplace } from '@bop/contracts';
import { canonicalJson } from '@bop/shared';
import type { OrderAddress } from '../orders/order-rules';

export type CustomerStatus = 'active' | 'archived';

/** The same address shape as an order's shipping address. */
export type CustomerAddress = OrderAddress;

/** What a customer's writer controls, in canonical form (absent optionals as null). */
export interface CustomerFields {
  externalId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  billingAddress: CustomerAddress | null;
  shippingAddress: CustomerAddress | null;
  taxId: string | null;
  notes: string | null;
  status: CustomerStatus;
}

type AddressInput = NonNullable<CustomerCreate['billingAddress']>;

/** Every key, in one order (jsonb reads back with its own key order). */
export function address(a: AddressInput | CustomerAddress | null | undefined): CustomerAddress | null {
  if (!a) return null;
  return { line1: a.line1, line2: a.line2 ?? null, city: a.city, region: a.region ?? null, postalCode: a.postalCode ?? null, country: a.country };
}

/** `POST /customers`: a new customer is active. */
export function createFields(body: CustomerCreate): CustomerFields {
  return {
    externalId: body.externalId ?? null,
    name: body.name,
    email: body.email ?? null,
    phone: body.phone ?? null,
    billingAddress: address(body.billingAddress),
    shippingAddress: address(body.shippingAddress),
    taxId: body.taxId ?? null,
    notes: body.notes ?? null,
    status: 'active',
  };
}

/**
 * `PUT /customers/external/{externalId}`: the body is the whole customer, so an absent optional field
 * is cleared; an absent status keeps the stored one (active for a new customer).
 */
export function replaceFields(body: CustomerReplace, externalId: string, stored: CustomerStatus | null): CustomerFields {
  return { ...createFields({ ...body, externalId }), status: body.status ?? stored ?? 'active' };
}

/** `PATCH /customers/{id}`: a field sent replaces the stored one (null clears it); a field not sent is kept. */
export function patchFields(current: CustomerFields, patch: CustomerPatch): CustomerFields {
  const pick = <K extends keyof CustomerFields>(key: K, value: CustomerFields[K] | undefined): CustomerFields[K] => (value === undefined ? current[key] : value);
  return {
    externalId: pick('externalId', patch.externalId),
    name: pick('name', patch.name),
    email: pick('email', patch.email),
    phone: pick('phone', patch.phone),
    billingAddress: patch.billingAddress === undefined ? current.billingAddress : address(patch.billingAddress),
    shippingAddress: patch.shippingAddress === undefined ? current.shippingAddress : address(patch.shippingAddress),
    taxId: pick('taxId', patch.taxId),
    notes: pick('notes', patch.notes),
    status: pick('status', patch.status),
  };
}

/** Whether two canonical forms differ (an identical re-send changes nothing: no version, no event). */
export function fieldsDiffer(a: CustomerFields, b: CustomerFields): boolean {
  return canonicalJson(a) !== canonicalJson(b);
}
