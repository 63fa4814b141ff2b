import { IANAZone } from 'luxon';
import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

export const Timezone = z
  .string()
  .min(1)
  .refine((tz) => IANAZone.isValidZone(tz) && tz.includes('/') || tz === 'UTC', { message: 'Must be an IANA time-zone name such as Europe/Berlin.' })
  .openapi({ example: 'America/New_York' });

/** Local time at which the business day ends, `HH:MM` (spec: ingestion rule 8). */
export const BusinessDayCutoff = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a local time HH:MM, e.g. 04:00.')
  .openapi({ example: '04:00' });

export const Address = z.strictObject({
  line1: z.string().max(200).optional(),
  line2: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
  postalCode: z.string().max(20).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, 'Must be an ISO 3166-1 alpha-2 country code.').optional(),
});

export const Location = z
  .object({
    id: z.string().openapi({ example: 'loc_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    name: z.string(),
    externalId: z.string().nullable(),
    timezone: z.string(),
    businessDayCutoff: z.string(),
    orgUnitId: z.string().nullable(),
    address: Address.nullable(),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
    archivedAt: z.string().nullable(),
  })
  .openapi('Location');

const name = z.string().trim().min(1).max(200);
const externalId = z.string().trim().min(1).max(200);

export const LocationCreate = z
  .strictObject({
    name,
    timezone: Timezone,
    businessDayCutoff: BusinessDayCutoff.default('04:00'),
    externalId: externalId.nullable().optional(),
    orgUnitId: z.string().min(1).nullable().optional(),
    address: Address.nullable().optional(),
  })
  .openapi('LocationCreate');

export const LocationReplace = LocationCreate.omit({ externalId: true }).openapi('LocationReplace');

export const LocationPatch = z
  .strictObject({
    name: name.optional(),
    timezone: Timezone.optional(),
    businessDayCutoff: BusinessDayCutoff.optional(),
    externalId: externalId.nullable().optional(),
    orgUnitId: z.string().min(1).nullable().optional(),
    address: Address.nullable().optional(),
    status: z.literal('active').optional().openapi({ description: '`active` reactivates an archived location' }),
  })
  .openapi('LocationPatch');

export const LocationListQuery = ListQuery.extend({
  status: z.enum(['active', 'archived']).optional(),
  orgUnitId: z.string().min(1).optional(),
  updatedSince: Timestamp.optional(),
});

export const locationOperations = {
  'GET /locations': { query: LocationListQuery, response: listEnvelope(Location) },
  'POST /locations': { body: LocationCreate, response: Location, status: 201 },
  'GET /locations/{id}': { params: IdParam, response: Location },
  'PATCH /locations/{id}': { params: IdParam, body: LocationPatch, response: Location },
  'DELETE /locations/{id}': { params: IdParam, response: Location },
  'GET /locations/external/{externalId}': { params: ExternalIdParam, response: Location },
  'PUT /locations/external/{externalId}': { params: ExternalIdParam, body: LocationReplace, response: Location, alsoStatuses: [201] },
};
