import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { SalesOrderAddress, SalesOrderAddressInput } from './orders';

export const CustomerStatus = z.enum(['active', 'archived']);

const text = (max: number) => z.string().trim().min(1).max(max);

/** Stored lower-cased: `Ada@Example.com` and `ada@example.com` are one address (filter `email` matches either). */
export const CustomerEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ error: 'Must be an email address such as ada@example.com.' }))
  .transform((e) => e.toLowerCase())
  .openapi({ example: 'ada@example.com' });

/** As people write it (spaces, dashes, brackets); 6 to 15 digits, the E.164 maximum. */
export const CustomerPhone = z
  .string()
  .trim()
  .max(30)
  .refine((v) => /^\+?[0-9 ().-]+$/.test(v) && /^\d{6,15}$/.test(v.replace(/\D/g, '')), { message: 'Must be a phone number of 6 to 15 digits such as +1 555 010 2030.' })
  .openapi({ example: '+1 555 010 2030' });

/** Same shape as an online order's shipping address: line1, city and an ISO 3166-1 alpha-2 country are required. */
export const CustomerAddressInput = SalesOrderAddressInput;

const editable = {
  name: text(200).openapi({ example: 'Ada Lovelace' }),
  email: CustomerEmail.nullable().optional(),
  phone: CustomerPhone.nullable().optional(),
  billingAddress: CustomerAddressInput.nullable().optional(),
  shippingAddress: CustomerAddressInput.nullable().optional(),
  /** VAT number, EIN …, as the customer gives it */
  taxId: text(50).nullable().optional(),
  notes: text(2000).nullable().optional(),
};

/** Unique company-wide when set (no source: `/customers/external/{externalId}` names one customer). */
const CustomerExternalId = text(200).openapi({ example: 'C-1001' });

/** Body of `POST /customers`; a new customer is active. */
export const CustomerCreate = z.strictObject({ externalId: CustomerExternalId.nullable().optional(), ...editable }).openapi('CustomerCreate');
export type CustomerCreate = z.output<typeof CustomerCreate>;

/**
 * Body of `PUT /customers/external/{externalId}`: the whole customer (absent optional fields are cleared),
 * the externalId from the path. `status` absent keeps the stored one, so a sync never revives an archived customer.
 */
export const CustomerReplace = z.strictObject({ ...editable, status: CustomerStatus.optional() }).openapi('CustomerReplace');
export type CustomerReplace = z.output<typeof CustomerReplace>;

/** Body of `PATCH /customers/{id}`: only the fields sent change; null clears an optional field. */
export const CustomerPatch = z
  .strictObject({ externalId: CustomerExternalId.nullable().optional(), ...editable, name: editable.name.optional(), status: CustomerStatus.optional() })
  .openapi('CustomerPatch');
export type CustomerPatch = z.output<typeof CustomerPatch>;

export const Customer = z
  .object({
    id: z.string().openapi({ example: 'cus_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    billingAddress: SalesOrderAddress.nullable(),
    shippingAddress: SalesOrderAddress.nullable(),
    taxId: z.string().nullable(),
    notes: z.string().nullable(),
    status: CustomerStatus,
    archivedAt: z.string().nullable(),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Customer');
export type Customer = z.output<typeof Customer>;

export const CustomerListQuery = ListQuery.extend({
  /** exact address, case-insensitive */
  email: CustomerEmail.optional(),
  updatedSince: Timestamp.optional(),
  status: CustomerStatus.optional(),
});

/** Customers: GET/POST /customers, GET/PUT /customers/external/{externalId}, GET/PATCH /customers/{id} */
export const salesCustomerOperations = {
  'GET /customers': { query: CustomerListQuery, response: listEnvelope(Customer) },
  'POST /customers': { body: CustomerCreate, response: Customer, status: 201 },
  'GET /customers/external/{externalId}': { params: ExternalIdParam, response: Customer },
  // 201 when the externalId is new, 200 otherwise
  'PUT /customers/external/{externalId}': { params: ExternalIdParam, body: CustomerReplace, response: Customer, alsoStatuses: [201] },
  'GET /customers/{id}': { params: IdParam, response: Customer },
  'PATCH /customers/{id}': { params: IdParam, body: CustomerPatch, response: Customer },
};
