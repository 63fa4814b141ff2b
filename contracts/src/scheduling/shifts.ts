import { z } from '../zod';
import { ExternalIdParam, IdParam, ListQuery, Timestamp, listEnvelope } from '../common';
import { utcTimestamp } from '../sales/transactions';

const id = z.string().min(1).max(64);
const LocalDate = z.iso.date().openapi({ example: '2026-12-21' });
const position = z.string().trim().min(1).max(100).openapi({ description: 'a position label of the company settings', example: 'Cook' });
const breakMinutes = z.number().int().min(0).max(240).openapi({ description: 'unpaid break within the shift' });
const notes = z.string().trim().max(1000).nullable();

const SHIFT_MAX_HOURS = 24;
function checkTimes(s: { start?: string; end?: string }, ctx: z.RefinementCtx) {
  if (!s.start || !s.end) return;
  const ms = Date.parse(s.end) - Date.parse(s.start);
  if (!(ms > 0)) ctx.addIssue({ code: 'custom', path: ['end'], message: 'The shift must end after it starts.' });
  else if (ms > SHIFT_MAX_HOURS * 3_600_000) ctx.addIssue({ code: 'custom', path: ['end'], message: `A shift lasts at most ${SHIFT_MAX_HOURS} hours.` });
}

const shiftFields = {
  locationId: id,
  position,
  employeeId: id.nullable().optional().openapi({ description: 'who works it; null or absent: an open shift' }),
  start: utcTimestamp('send start in UTC').openapi({ example: '2026-12-21T14:00:00Z' }),
  end: utcTimestamp('send end in UTC').openapi({ example: '2026-12-21T22:00:00Z' }),
  breakMinutes: breakMinutes.default(0),
  notes: notes.optional(),
};

export const ShiftCreate = z
  .strictObject({ ...shiftFields, externalId: z.string().trim().min(1).max(200).nullable().optional() })
  .superRefine(checkTimes)
  .openapi('ShiftCreate');

/** `PUT /shifts/external/{externalId}`: the whole shift as the sending system has it. */
export const ShiftReplace = z.strictObject(shiftFields).superRefine(checkTimes).openapi('ShiftReplace');

export const ShiftPatch = z
  .strictObject({
    position: position.optional(),
    employeeId: id.nullable().optional(),
    start: utcTimestamp('send start in UTC').optional(),
    end: utcTimestamp('send end in UTC').optional(),
    breakMinutes: breakMinutes.optional(),
    notes: notes.optional(),
  })
  .superRefine(checkTimes)
  .openapi('ShiftPatch');

export const ShiftWarning = z
  .object({
    code: z.enum(['outside_availability', 'time_off', 'overlapping_shift', 'short_rest', 'overtime', 'position_not_held', 'location_not_worked', 'employee_not_active']),
    message: z.string(),
  })
  .openapi('ShiftWarning');

export const Shift = z
  .object({
    id: z.string().openapi({ example: 'shf_01JD3Y7Q0ZK8M4N2P5R6S7T8V9' }),
    externalId: z.string().nullable(),
    locationId: z.string(),
    position: z.string(),
    employeeId: z.string().nullable(),
    start: Timestamp,
    end: Timestamp,
    timezone: z.string().openapi({ description: "the location's zone" }),
    localStart: z.string().openapi({ description: 'start in the location\'s zone, with its offset', example: '2026-12-21T09:00:00-05:00' }),
    localEnd: z.string(),
    breakMinutes: z.number().int(),
    paidHours: z.string().openapi({ description: 'length less the unpaid break, decimal hours', example: '7.5' }),
    notes: z.string().nullable(),
    status: z.enum(['draft', 'published', 'archived']),
    flags: z
      .array(z.object({ code: z.enum(['time_off']), message: z.string(), sourceId: z.string().openapi({ description: 'the record that raised it (a time-off request)' }) }))
      .openapi({ description: 'what later changes elsewhere say about the shift: approved time off on its day (time_off.approved), until cancelled' }),
    publishedAt: Timestamp.nullable(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Shift');

/** A created or changed shift, with what the manager should know about it in words (never a refusal). */
export const ShiftWithWarnings = Shift.extend({ warnings: z.array(ShiftWarning) }).openapi('ShiftWithWarnings');

export const ShiftListQuery = ListQuery.extend({
  locationId: id.optional(),
  employeeId: id.optional(),
  position: z.string().max(100).optional(),
  status: z.enum(['draft', 'published', 'archived']).optional(),
  open: z.enum(['true', 'false']).optional().openapi({ description: '`true`: only shifts without an employee' }),
  from: utcTimestamp('send from in UTC').optional().openapi({ description: 'shifts ending after this instant' }),
  to: utcTimestamp('send to in UTC').optional().openapi({ description: 'shifts starting before this instant' }),
  updatedSince: Timestamp.optional(),
});

export const ShiftClaim = z.strictObject({ employeeId: id }).openapi('ShiftClaim');

export const SchedulePublish = z
  .strictObject({ locationId: id, from: LocalDate, to: LocalDate })
  .superRefine((b, ctx) => {
    if (b.to < b.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before from.' });
    else if (Date.parse(b.to) - Date.parse(b.from) > 62 * 86_400_000) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Publish at most 62 days at a time.' });
  })
  .openapi('SchedulePublish');

export const SchedulePublished = z
  .object({
    locationId: z.string(),
    from: z.string(),
    to: z.string(),
    published: z.number().int().openapi({ description: 'draft shifts published now' }),
    openShifts: z.number().int().openapi({ description: 'of them, shifts without an employee (posted as open shifts)' }),
    shiftIds: z.array(z.string()),
    publishedAt: Timestamp,
  })
  .openapi('SchedulePublished');

export const MeShiftsQuery = ListQuery.extend({
  from: utcTimestamp('send from in UTC').optional(),
  to: utcTimestamp('send to in UTC').optional(),
});

export const shiftOperations = {
  'GET /shifts': { query: ShiftListQuery, response: listEnvelope(Shift) },
  'POST /shifts': { body: ShiftCreate, response: ShiftWithWarnings, status: 201 },
  'GET /shifts/{id}': { params: IdParam, response: Shift },
  'PATCH /shifts/{id}': { params: IdParam, body: ShiftPatch, response: ShiftWithWarnings },
  'DELETE /shifts/{id}': { params: IdParam, response: Shift },
  'GET /shifts/external/{externalId}': { params: ExternalIdParam, response: Shift },
  'PUT /shifts/external/{externalId}': { params: ExternalIdParam, body: ShiftReplace, response: ShiftWithWarnings, alsoStatuses: [201] },
  'POST /shifts/{id}:claim': { params: IdParam, body: ShiftClaim, response: ShiftWithWarnings },
  'POST /schedules:publish': { body: SchedulePublish, response: SchedulePublished },
  'GET /me/shifts': { query: MeShiftsQuery, response: listEnvelope(Shift) },
  'GET /me/open-shifts': { query: MeShiftsQuery, response: listEnvelope(Shift) },
  'POST /me/shifts/{id}:claim': { params: IdParam, response: ShiftWithWarnings },
};
