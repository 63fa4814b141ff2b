import type { z } from 'zod';
import type { RecognitionCreate, RecognitionListQuery } from '@bop/contracts';
import { ValidationError, actorOf, assertEmployeeRecordInReach, decodeCursor, newId, pageLimit, resolveEmployees, toPage, type Work } from '@bop/shared';
import { Recognition } from './entities';
import { recognitionDto } from './dto';

/**
 * `POST /recognitions`: a shout-out to an active employee (as people says: read through when the replica
 * lacks them or holds them as not active) within the giver's reach, shown at one of the employee's
 * locations; not to oneself. `recognition.posted`.
 */
export async function postRecognition(w: Work, body: z.output<typeof RecognitionCreate>) {
  const e = (await resolveEmployees(w, [{ employeeId: body.employeeId }], { doubt: (x) => x.status !== 'active', payRates: false })).byId.get(body.employeeId);
  if (!e) throw new ValidationError([{ path: 'employeeId', message: `No employee ${body.employeeId}.` }]);
  if (e.status !== 'active') throw new ValidationError([{ path: 'employeeId', message: `Employee ${e.id} is ${e.status}; shout-outs go to active employees.` }]);
  const locationId = body.locationId ?? e.homeLocationId;
  if (locationId !== e.homeLocationId && !e.locationIds.includes(locationId)) throw new ValidationError([{ path: 'locationId', message: `Employee ${e.id} does not work at location ${locationId}.` }]);
  assertEmployeeRecordInReach(w.reach(), locationId, e.id);
  if (w.actor.employeeId === e.id) throw new ValidationError([{ path: 'employeeId', message: 'A shout-out goes to someone else.' }]);
  const row = w.em.create(Recognition, {
    id: newId('recognition'),
    employeeId: e.id,
    employeeName: `${e.firstName} ${e.lastName}`.trim(),
    locationId,
    message: body.message,
    badge: body.badge ?? null,
    givenBy: actorOf(w.actor),
    createdAt: w.now,
  });
  await w.em.flush();
  const dto = recognitionDto(row);
  w.emit({ type: 'recognition.posted', aggregateType: 'recognition', aggregateId: row.id, locationId, object: dto });
  return dto;
}

/** `GET /recognitions`: newest first, by location or employee. */
export async function listRecognitions(w: Work, query: z.output<typeof RecognitionListQuery>) {
  const before = decodeCursor(query.cursor);
  const n = pageLimit(query.limit);
  const rows = await w.em.find(
    Recognition,
    { ...(before ? { id: { $lt: before } } : {}), ...(query.locationId ? { locationId: query.locationId } : {}), ...(query.employeeId ? { employeeId: query.employeeId } : {}) },
    { orderBy: { id: 'desc' }, limit: n + 1 },
  );
  return toPage(rows, n, recognitionDto);
}
