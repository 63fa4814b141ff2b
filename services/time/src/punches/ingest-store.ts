import { PunchInput } from '@bop/contracts';
import {
  businessDayOf,
  contentHash,
  employeeFor,
  ingestBatch,
  lockStoredRecords,
  newId,
  parseLocatedRecords,
  resolveEmployees,
  sqlList,
  sqlQuery,
  systemPrincipal,
  Conflict,
  type BatchResult,
  type FieldError,
  type IngestTarget,
  type PreparedRecord,
  type Principal,
  type ReplicaEmployee,
  type StoredKey,
  type StoredRecord,
  type Work,
} from '@bop/shared';
import type { TimeSettings } from '../settings/company-settings';
import { periodsOfDates, type PeriodRow } from '../pay-periods/store';
import { markTimesheets, type TimesheetTouch } from '../timesheets/marks-store';
import { punchExceptions, terminationError } from './punch-rules';
import type { PunchRow } from './entities';

/** The punches table as the kit's batch upsert writes it (snake_case columns of the migration), in the unit's schema. */
export const punchesTarget: IngestTarget = {
  table: 'punches',
  idKind: 'punch',
  aggregateType: 'punch',
  columns: {
    employee_id: 'text',
    location_id: 'text',
    type: 'text',
    occurred_at: 'timestamptz',
    device_id: 'text',
    position: 'text',
    exceptions: 'jsonb',
    pay_period_id: 'text',
  },
};

/** The punch object of `punch.received` and `punch.corrected` (the shape of `GET /time/punches/{id}`). */
export function punchObject(p: { id: string; source: string; externalId: string; row: PunchRow; version: number; at: Date; createdAt?: Date }) {
  return {
    id: p.id,
    source: p.source,
    externalId: p.externalId,
    employeeId: p.row.employee_id,
    locationId: p.row.location_id,
    type: p.row.type,
    occurredAt: new Date(p.row.occurred_at).toISOString(),
    deviceId: p.row.device_id,
    position: p.row.position,
    status: 'active',
    heldReason: null,
    exceptions: p.row.exceptions,
    payPeriodId: p.row.pay_period_id,
    version: p.version,
    updatedAt: p.at.toISOString(),
  };
}

export interface Candidate {
  index: number;
  externalId: string | null;
  errors: FieldError[];
  warnings: FieldError[];
  row?: PunchRow;
  hash?: string;
  employee?: ReplicaEmployee;
  localDate?: string;
  period?: PeriodRow;
}

/** What a batch of punches is judged on before it is stored (replicas read, pay periods made): `preparePunches`. */
export interface PreparedPunches {
  source: string;
  endpoint: string;
  candidates: Candidate[];
  batchEvent?: boolean;
}

/** Runs of a batch's transaction at most: a batch touching many timesheets may lose more than one race. */
export const PUNCH_BATCH_ATTEMPTS = 3;

/** A concurrent batch won the race on the same punches every time (`POST /time/punches:batch`'s 409). */
export const punchBatchConflict = () => new Conflict('A concurrent batch changed the same punches; send this batch again.');

/**
 * `POST /time/punches:batch` (spec: ingestion rules 1, 5, 7, 8): each punch judged on its own — its
 * location (rule 2), its employee (by id or externalId; unknown, or after the last day of a
 * termination, rejected on the field), exceptions kept on the punch (a location outside the
 * employee's, a position not held); then stored by the kit's set-based upsert, unique on (source,
 * externalId). A punch in a locked pay period, or a change to one stored in a locked period, is held
 * for review (rule 7: locked figures never change silently). Every timesheet a stored punch touches is
 * opened (or reopened: approval withdrawn) and marked for recalculation in the same transaction.
 * Judged and stored in the unit (the batch route judges outside its transaction: `preparePunches`,
 * then `storePunches` in `ctx.transaction`).
 */
export async function ingestPunches(
  w: Work,
  opts: { source: string; records: unknown[]; endpoint: string; settings: () => Promise<TimeSettings>; batchEvent?: boolean },
): Promise<BatchResult> {
  return storePunches(w, await preparePunches(w, opts));
}

/** Judges each punch of a batch (no transaction needed: replicas read through, pay periods made as needed). */
export async function preparePunches(
  w: Work,
  opts: { source: string; records: unknown[]; endpoint: string; settings: () => Promise<TimeSettings>; batchEvent?: boolean },
): Promise<PreparedPunches> {
  const located = await parseLocatedRecords(w, PunchInput, opts.records);
  const employees = await resolveEmployees(
    w,
    located.flatMap((r) => (r.data && r.location ? [r.data] : [])),
    // a termination decides: people's current state, so one answered a moment ago counts (read-your-writes)
    { current: true, payRates: false },
  );
  const candidates: Candidate[] = located.map((r) => {
    const c: Candidate = { index: r.index, externalId: r.externalId, errors: r.errors, warnings: r.warnings };
    if (!r.data || !r.location) return c;
    const found = employeeFor(employees, r.data);
    if ('error' in found) {
      c.errors.push(found.error);
      return c;
    }
    const e = found.employee;
    const occurredAt = new Date(r.data.occurredAt).toISOString();
    // spec: ingestion rule 8, the day from the location's time zone (punches: calendar days, no cut-off)
    const localDate = businessDayOf(occurredAt, r.location.timezone, '00:00');
    const ended = terminationError(e, localDate);
    if (ended) {
      c.errors.push(ended);
      return c;
    }
    if (localDate < e.hireDate) c.warnings.push({ path: 'occurredAt', message: `This punch on ${localDate} is before employee ${e.id}'s hire date ${e.hireDate}.` });
    const sent = { employee_id: e.id, location_id: r.location.id, type: r.data.type, occurred_at: occurredAt, device_id: r.data.deviceId ?? null, position: r.data.position ?? null };
    c.hash = contentHash(sent);
    c.row = { ...sent, exceptions: punchExceptions(e, r.location.id, r.data.position ?? null), pay_period_id: null };
    c.employee = e;
    c.localDate = localDate;
    return c;
  });
  const valid = candidates.filter((c) => c.row && c.errors.length === 0);
  const periods = await periodsOfDates(w, valid.map((c) => c.localDate!), opts.settings);
  for (const c of valid) {
    c.period = periods.get(c.localDate!)!;
    c.row!.pay_period_id = c.period.id;
  }

  return { source: opts.source, endpoint: opts.endpoint, candidates, batchEvent: opts.batchEvent };
}

/**
 * Stores judged punches in the unit's transaction (the batch route's runs again when it loses a race
 * to a concurrent batch, a deadlock between their timesheet marks: nothing of a lost run is kept, and
 * the run again sees what the other committed).
 */
export async function storePunches(w: Work, prepared: PreparedPunches): Promise<BatchResult> {
  const { candidates, source } = prepared;
  const valid = candidates.filter((c) => c.row && c.errors.length === 0);
  // the stored twins, locked in externalId order (as the kit's upsert would): their period decides a hold too
  const stored = await lockStoredRecords<StoredKey & { pay_period_id: string | null; employee_id: string }>(w, punchesTarget, source, valid.map((c) => c.externalId!), [
    `"pay_period_id"`,
    `"employee_id"`,
  ]);
  const blocking = new Map<string, string>();
  const storedPeriods = await lockedPeriodIds(w, [...stored.values()].map((s) => s.pay_period_id));
  const records: PreparedRecord<PunchRow>[] = candidates.map((c) => {
    const base = { index: c.index, externalId: c.externalId, errors: c.errors, warnings: c.warnings.length > 0 ? c.warnings : undefined };
    if (!c.row || c.errors.length > 0) return base;
    const twin = stored.get(c.externalId!) ?? null;
    if (twin && twin.content_hash === c.hash) return { ...base, row: c.row, hash: c.hash, unchangedId: twin.id };
    const lockedHere = c.period!.locked;
    const lockedThere = twin?.pay_period_id ? storedPeriods.has(twin.pay_period_id) : false;
    if (lockedHere || lockedThere) {
      blocking.set(c.externalId!, lockedHere ? c.period!.id : twin!.pay_period_id!);
      const which = lockedHere ? c.period! : { start: '', end: '' };
      const warnings = [
        ...c.warnings,
        {
          path: 'occurredAt',
          message: lockedHere
            ? `The pay period ${which.start} to ${which.end} is locked: this punch is held for review and counts in no timesheet until the period is unlocked.`
            : `The stored punch ${twin!.id} lies in a locked pay period: this change is held for review until the period is unlocked.`,
        },
      ];
      return { ...base, warnings, row: c.row, hash: c.hash, divert: true };
    }
    return { ...base, row: c.row, hash: c.hash, stored: twin ? { id: twin.id, contentHash: twin.content_hash } : null };
  });
  const byExternalId = new Map(candidates.filter((c) => c.externalId).map((c) => [c.externalId!, c]));
  const touches: TimesheetTouch[] = [];
  const result = await ingestBatch(w, {
    target: punchesTarget,
    source,
    records,
    area: 'time',
    endpoint: prepared.endpoint,
    batchEvent: prepared.batchEvent,
    eventsFor: (s) => punchEvents(source, s, w.now),
    // in the unit's transaction (the batch's savepoint is on its connection)
    divert: (_em, held) => holdPunches(w, source, held, blocking),
    afterStore: async (_em, written) => {
      await afterPunchesStored(w, source, written, w.actor);
      for (const s of written) {
        const home = byExternalId.get(s.externalId)?.employee?.homeLocationId ?? s.row.location_id;
        touches.push({ employeeId: s.row.employee_id, payPeriodId: s.row.pay_period_id!, locationId: home });
        const before = s.before as { employee_id?: string; pay_period_id?: string | null } | null;
        if (before?.pay_period_id && (before.pay_period_id !== s.row.pay_period_id || before.employee_id !== s.row.employee_id)) {
          touches.push({ employeeId: before.employee_id!, payPeriodId: before.pay_period_id, locationId: home });
        }
      }
    },
  });
  // last, just before the commit: a mark's row lock (concurrent batches touching the same
  // timesheets wait on it) is held for as short a time as can be
  await markTimesheets(w, touches);
  return result;
}

/** The ids among `ids` of locked pay periods. */
export async function lockedPeriodIds(w: Work, ids: Array<string | null>): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((x): x is string => x !== null))];
  if (wanted.length === 0) return new Set();
  // raw SQL (bench:sql time.locked-period-ids): 3,011 µs against 8,789 through the ORM (2.92×: a read of 2 rows: the ORM's own cost)
  const rows = await sqlQuery<{ id: string }>(w.em, `select "id" from "${w.schema}"."pay_periods" where "id" = any(?::text[]) and "locked_at" is not null`, [sqlList(wanted)]);
  return new Set(rows.map((r) => r.id));
}

/** supplement: `punch.received` for each punch stored as created; `punch.corrected` for a stored punch re-sent with other content. */
function punchEvents(source: string, s: StoredRecord<PunchRow>, now: Date) {
  const object = punchObject({ id: s.id, source, externalId: s.externalId, row: s.row, version: s.version, at: now });
  if (s.status === 'created') return [{ type: 'punch.received', locationId: s.row.location_id, object }];
  const before = s.before as { type: string; occurred_at: Date | string } | null;
  const previous = before ? { type: before.type, occurredAt: new Date(before.occurred_at).toISOString() } : undefined;
  return [{ type: 'punch.corrected', locationId: s.row.location_id, object, previous }];
}

/**
 * A re-sent punch with other content keeps its first form and a history entry (`via: resend`); a held
 * twin of a punch stored now is dropped (the newer content won).
 */
async function afterPunchesStored(w: Work, source: string, written: StoredRecord<PunchRow>[], actor: Principal): Promise<void> {
  await recordResends(w, written.filter((w) => w.status === 'updated' && w.before), actor);
  await dropHeldTwins(w, source, written);
}

/** Each re-sent punch keeps its first form (`original`) and gains a history entry (`via: resend`). */
export async function recordResends(w: Work, updated: StoredRecord<PunchRow>[], actor: Principal): Promise<void> {
  const { now } = w;
  if (updated.length > 0) {
    const by = actor.kind === 'integration' ? { type: 'integration', id: actor.integrationId ?? actor.id } : { type: actor.kind === 'system' ? 'system' : 'user', id: actor.userId ?? actor.id };
    const entries = updated.map((w) => {
      const b = w.before as { type: string; occurred_at: Date | string };
      const before = { type: b.type, occurredAt: new Date(b.occurred_at).toISOString() };
      return {
        id: w.id,
        original: before,
        entry: { at: now.toISOString(), by, reason: 'Sent again by the timeclock with other content.', before, after: { type: w.row.type, occurredAt: new Date(w.row.occurred_at).toISOString() }, via: 'resend' },
      };
    });
    // raw SQL (bench:sql time.resend-history): 41,823 µs against 108,021 through the ORM (2.58×: one update from the payload; the ORM loads and flushes each punch)
    await sqlQuery(
      w.em,
      `update "${w.schema}"."punches" p set "original" = coalesce(p."original", x."original"), "corrections" = p."corrections" || jsonb_build_array(x."entry")
       from jsonb_to_recordset(?::jsonb) as x("id" text, "original" jsonb, "entry" jsonb) where p."id" = x."id"`,
      [JSON.stringify(entries)],
    );
  }
}

/** The held twins of punches stored now are dropped (the newer content won). */
export async function dropHeldTwins(w: Work, source: string, written: StoredRecord<PunchRow>[]): Promise<void> {
  if (written.length > 0) {
    // raw SQL (bench:sql time.held-twins): 18,820 µs against 34,302 through the ORM (1.82×: one array parameter; the ORM binds 1,000 values)
    await sqlQuery(w.em, `delete from "${w.schema}"."held_punches" where "source" = ? and "external_id" = any(?::text[])`, [source, sqlList(written.map((w) => w.externalId))]);
  }
}

/**
 * Stores punches held for review (spec: ingestion rule 7) in `held_punches`, one per (source,
 * externalId): the same content again is `unchanged`, other content replaces the held row (`updated`).
 */
export async function holdPunches(
  w: Work,
  source: string,
  held: Array<{ index: number; externalId: string; row: PunchRow; hash: string; warnings?: FieldError[] }>,
  blocking: Map<string, string>,
): Promise<Array<{ status: 'created' | 'updated' | 'unchanged'; id: string }>> {
  const { em, now } = w;
  const payload = held.map((h) => ({
    id: newId('punch'),
    external_id: h.externalId,
    content_hash: h.hash,
    row: h.row,
    // the locked period that holds it (its own, or the stored punch's it would change)
    pay_period_id: blocking.get(h.externalId) ?? h.row.pay_period_id,
    reason: h.warnings?.find((w) => w.path === 'occurredAt')?.message ?? 'Held for review: a locked pay period.',
  }));
  // raw SQL (bench:sql time.hold-punches): 361,495 µs against 730,097 through the ORM (2.02×: one upsert; the ORM reads, then inserts and updates)
  const rows = await sqlQuery<{ id: string; external_id: string; inserted: boolean; version: number }>(
    em,
    `insert into "${w.schema}"."held_punches" as h ("id", "source", "external_id", "content_hash", "row", "pay_period_id", "reason", "version", "created_at", "updated_at")
     select x."id", ?, x."external_id", x."content_hash", x."row", x."pay_period_id", x."reason", 1, ?, ?
     from jsonb_to_recordset(?::jsonb) as x("id" text, "external_id" text, "content_hash" text, "row" jsonb, "pay_period_id" text, "reason" text)
     on conflict ("external_id", "source") do update set "content_hash" = excluded."content_hash", "row" = excluded."row", "pay_period_id" = excluded."pay_period_id",
       "reason" = excluded."reason", "version" = h."version" + 1, "updated_at" = excluded."updated_at"
     where h."content_hash" is distinct from excluded."content_hash"
     returning h."id", h."external_id", (h."xmax" = 0) as "inserted", h."version"`,
    [source, now, now, JSON.stringify(payload)],
  );
  const answered = new Map(rows.map((r) => [r.external_id, r]));
  const unchanged = held.filter((h) => !answered.has(h.externalId));
  const existing =
    unchanged.length > 0
      ? new Map(
          // raw SQL (bench:sql time.hold-punches): as above
          (await sqlQuery<{ id: string; external_id: string }>(em, `select "id", "external_id" from "${w.schema}"."held_punches" where "source" = ? and "external_id" = any(?::text[])`, [source, sqlList(unchanged.map((u) => u.externalId))])).map((r) => [
            r.external_id,
            r.id,
          ]),
        )
      : new Map<string, string>();
  return held.map((h) => {
    const r = answered.get(h.externalId);
    if (r) return { status: r.inserted ? 'created' : 'updated', id: r.id };
    return { status: 'unchanged', id: existing.get(h.externalId)! };
  });
}

/**
 * The punches held in a period, taken out of it as it is unlocked (a held change whose own period is
 * locked too is moved to wait on that one).
 */
export async function takeHeldPunches(w: Work, payPeriodId: string) {
  const { em, now } = w;
  // raw SQL (bench:sql time.take-held): 97,069 µs against 293,862 through the ORM (3.03×: an update from a join and a delete returning; the ORM loads, flushes and deletes)
  // a held change whose own period is locked too waits on that one now
  await sqlQuery(
    em,
    `update "${w.schema}"."held_punches" h set "pay_period_id" = h."row"->>'pay_period_id', "updated_at" = ?
     from "${w.schema}"."pay_periods" p where h."pay_period_id" = ? and p."id" = h."row"->>'pay_period_id' and p."id" <> ? and p."locked_at" is not null`,
    [now, payPeriodId, payPeriodId],
  );
  const held = await sqlQuery<{ source: string; external_id: string; content_hash: string; row: PunchRow }>(
    em,
    `delete from "${w.schema}"."held_punches" where "pay_period_id" = ? returning "source", "external_id", "content_hash", "row"`,
    [payPeriodId],
  );
  return held;
}

/**
 * The punches held in a period while it was locked, applied once it is unlocked (as the timeclock sent
 * them, by the system): stored by the kit's upsert per source, `punch.received` or `punch.corrected`,
 * their timesheets reopened and recalculated; the held rows removed.
 */
export async function applyHeldPunches(w: Work, payPeriodId: string): Promise<number> {
  const { now } = w;
  const held = await takeHeldPunches(w, payPeriodId);
  const bySource = new Map<string, typeof held>();
  for (const h of held) {
    const own = bySource.get(h.source);
    if (own) own.push(h);
    else bySource.set(h.source, [h]);
  }
  for (const [source, rows] of bySource) {
    await ingestBatch(w, {
      target: punchesTarget,
      source,
      records: rows.map((h, index) => ({ index, externalId: h.external_id, row: h.row, hash: h.content_hash })),
      // as the timeclock sent them, by the system
      actor: systemPrincipal,
      area: 'time',
      endpoint: 'POST /time/pay-periods/{id}:unlock',
      batchEvent: false,
      eventsFor: (s) => punchEvents(source, s, now),
      // in the unit's transaction (the batch's savepoint is on its connection)
      afterStore: async (_em, written) => {
        await afterPunchesStored(w, source, written, systemPrincipal);
        const homes = await resolveEmployees(w, written.map((s) => ({ employeeId: s.row.employee_id })));
        const touches: TimesheetTouch[] = [];
        for (const s of written) {
          const home = homes.byId.get(s.row.employee_id)?.homeLocationId ?? s.row.location_id;
          touches.push({ employeeId: s.row.employee_id, payPeriodId: s.row.pay_period_id!, locationId: home });
          const before = s.before as { employee_id?: string; pay_period_id?: string | null } | null;
          if (before?.pay_period_id && before.pay_period_id !== s.row.pay_period_id) touches.push({ employeeId: before.employee_id!, payPeriodId: before.pay_period_id, locationId: home });
        }
        await markTimesheets(w, touches);
      },
    });
  }
  return held.length;
}
