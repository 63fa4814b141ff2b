import type { PersonalDataset } from '@bop/contracts';
import type { Work } from '@bop/shared';
import { HeldPunch, Punch } from '../punches/entities';
import { Timesheet } from '../timesheets/entities';
import { PunchCorrection } from '../corrections/entities';
import { correctionDto } from '../corrections/dto';
import { punchWithHistoryDto } from '../punches/dto';
import { periodsById } from '../pay-periods/store';
import { TimeOffEntry, TimeOffRequest } from '../time-off/entities';
import { requestDto } from '../time-off/dto';

/**
 * Time's part of `GET /me/export`: the employee's punches (with their correction history), those held
 * for review, their timesheets per pay period, their correction requests, their time-off requests and
 * the time-off ledger (adjustments, hours taken and restored).
 */
export async function timeDatasets(w: Work, employeeId: string | null): Promise<PersonalDataset[]> {
  if (!employeeId) return [];
  const { em } = w;
  const punches = await em.find(Punch, { employeeId }, { orderBy: { occurredAt: 'asc', id: 'asc' } });
  const held = await em.find(HeldPunch, { row: { employee_id: employeeId } }, { orderBy: { id: 'asc' } });
  const sheets = await em.find(Timesheet, { employeeId }, { orderBy: { id: 'asc' } });
  const periods = await periodsById(w, sheets.map((s) => s.payPeriodId));
  const corrections = await em.find(PunchCorrection, { employeeId }, { orderBy: { id: 'asc' } });
  const requests = await em.find(TimeOffRequest, { employeeId }, { orderBy: { id: 'asc' } });
  const ledger = await em.find(TimeOffEntry, { employeeId }, { orderBy: { date: 'asc', id: 'asc' } });
  return [
    { name: 'punches', description: 'your punches from timeclocks, with every correction made to them', rows: punches.map(punchWithHistoryDto) },
    {
      name: 'held-punches',
      description: 'punches sent into a locked pay period, held for review',
      rows: held.map((h) => ({ id: h.id, source: h.source, externalId: h.externalId, type: h.row.type, occurredAt: h.row.occurred_at, locationId: h.row.location_id, reason: h.reason })),
    },
    {
      name: 'timesheets',
      description: 'your timesheets per pay period: status and totals (daily figures in the app)',
      rows: sheets.map((s) => ({
        id: s.id,
        payPeriodStart: periods.get(s.payPeriodId)?.start ?? null,
        payPeriodEnd: periods.get(s.payPeriodId)?.end ?? null,
        status: s.status,
        totals: s.figures?.totals ?? null,
        exceptions: s.figures?.exceptions ?? [],
        approvedAt: s.approvedAt ? s.approvedAt.toISOString() : null,
        rejectionReason: s.rejectionReason ?? null,
      })),
    },
    { name: 'punch-corrections', description: 'your requests to fix a missed or wrong punch', rows: corrections.map(correctionDto) },
    { name: 'time-off-requests', description: 'your time-off requests and what was decided', rows: requests.map(requestDto) },
    {
      name: 'time-off-ledger',
      description: 'changes to your time-off balances: adjustments with their reasons, hours taken and restored (accrual is computed from your hours)',
      rows: ledger.map((e) => ({ id: e.id, typeId: e.typeId, kind: e.kind, date: e.date, hours: e.hours, reason: e.reason ?? null, requestId: e.requestId ?? null, createdAt: e.createdAt.toISOString() })),
    },
  ];
}
