import { z } from '../zod';
import { IdParam, ListQuery, Timestamp, listEnvelope } from '../common';

export const Weekday = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
export const AvailabilityKind = z.enum(['available', 'unavailable', 'preferred']);
const LocalDate = z.iso.date().openapi({ example: '2026-12-24' });
/** A wall-clock time at the employee's home location; `24:00` ends a window at midnight. */
const LocalTime = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'Use a time HH:MM from 00:00 to 24:00.')
  .openapi({ example: '09:00' });

const windowFields = {
  kind: AvailabilityKind.openapi({ description: '`available` and `preferred` windows are when the employee can work (preferred: would like to); `unavailable` when they cannot' }),
  weekday: Weekday.optional().openapi({ description: 'a recurring weekly window on this weekday (with `date` absent)' }),
  date: LocalDate.optional().openapi({ description: 'a dated exception: on this date the dated windows replace the recurring ones' }),
  startTime: LocalTime.default('00:00'),
  endTime: LocalTime.default('24:00'),
  effectiveFrom: LocalDate.nullable().optional().openapi({ description: 'a recurring window applies from this date (default: always)' }),
  effectiveUntil: LocalDate.nullable().optional().openapi({ description: 'a recurring window applies until this date, inclusive (default: always)' }),
  note: z.string().trim().max(500).nullable().optional(),
};

function checkWindow(w: { weekday?: string; date?: string; startTime: string; endTime: string; effectiveFrom?: string | null; effectiveUntil?: string | null }, ctx: z.RefinementCtx) {
  if ((w.weekday === undefined) === (w.date === undefined)) ctx.addIssue({ code: 'custom', path: ['weekday'], message: 'Send either weekday (a recurring window) or date (a dated exception), not both.' });
  if (w.endTime <= w.startTime) ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'The window must end after it starts on the same day (split an overnight window at 24:00).' });
  if (w.date !== undefined && (w.effectiveFrom || w.effectiveUntil)) ctx.addIssue({ code: 'custom', path: ['effectiveFrom'], message: 'effectiveFrom and effectiveUntil apply to recurring windows only.' });
  if (w.effectiveFrom && w.effectiveUntil && w.effectiveUntil < w.effectiveFrom) ctx.addIssue({ code: 'custom', path: ['effectiveUntil'], message: 'Must not be before effectiveFrom.' });
}

export const AvailabilityCreate = z
  .strictObject({ employeeId: z.string().min(1).max(64), ...windowFields })
  .superRefine(checkWindow)
  .openapi('AvailabilityCreate');

export const MyAvailabilityCreate = z.strictObject(windowFields).superRefine(checkWindow).openapi('MyAvailabilityCreate');

export const AvailabilityPatch = z
  .strictObject({
    kind: AvailabilityKind.optional(),
    startTime: LocalTime.optional(),
    endTime: LocalTime.optional(),
    effectiveFrom: LocalDate.nullable().optional(),
    effectiveUntil: LocalDate.nullable().optional(),
    note: z.string().trim().max(500).nullable().optional(),
  })
  .openapi('AvailabilityPatch');

export const Availability = z
  .object({
    id: z.string().openapi({ example: 'avl_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    employeeId: z.string(),
    kind: AvailabilityKind,
    weekday: Weekday.nullable(),
    date: z.string().nullable(),
    startTime: z.string(),
    endTime: z.string(),
    effectiveFrom: z.string().nullable(),
    effectiveUntil: z.string().nullable(),
    timezone: z.string().openapi({ description: "the employee's home location's zone the times are read in" }),
    note: z.string().nullable(),
    status: z.enum(['active', 'archived']),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Availability');

export const AvailabilityListQuery = ListQuery.extend({
  employeeId: z.string().min(1).max(64).optional(),
  locationId: z.string().min(1).max(64).optional().openapi({ description: 'employees who work at this location' }),
  status: z.enum(['active', 'archived']).optional(),
  updatedSince: Timestamp.optional(),
});

export const availabilityOperations = {
  'GET /availability': { query: AvailabilityListQuery, response: listEnvelope(Availability) },
  'POST /availability': { body: AvailabilityCreate, response: Availability, status: 201 },
  'GET /availability/{id}': { params: IdParam, response: Availability },
  'PATCH /availability/{id}': { params: IdParam, body: AvailabilityPatch, response: Availability },
  'DELETE /availability/{id}': { params: IdParam, response: Availability },
  'GET /me/availability': { query: ListQuery, response: listEnvelope(Availability) },
  'POST /me/availability': { body: MyAvailabilityCreate, response: Availability, status: 201 },
  'DELETE /me/availability/{id}': { params: IdParam, status: 204 },
};
