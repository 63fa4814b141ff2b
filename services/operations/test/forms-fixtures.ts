import { sql, type TestService } from '@bop/test-support';
import type { Principal } from '@bop/shared';

let n = 0;
const next = () => `${Date.now().toString(36)}${(n += 1)}`;

/** A location in operations' organization replica (organization is not running: the replica decides). */
export async function formsLocation(t: TestService, o: { status?: string } = {}): Promise<string> {
  const id = `loc_f${next()}`;
  await sql(t, `insert into operations.locations (id, external_id, timezone, business_day_cutoff, status, org_unit_id, updated_at) values ($1, null, 'UTC', '04:00', $2, null, now())`, [id, o.status ?? 'active']);
  return id;
}

/** An employee in operations' people replica. */
export async function formsEmployee(t: TestService, home: string, o: { status?: string } = {}): Promise<string> {
  const id = `emp_f${next()}`;
  await sql(
    t,
    `insert into operations.employees (id, external_id, employee_number, first_name, last_name, status, home_location_id, location_ids, department_id, positions, hire_date, termination_date, user_id, version, updated_at)
     values ($1, null, null, 'Sam', 'Cook', $2, $3, '{}', null, '{}', '2025-01-01', $4, null, 1, now())`,
    [id, o.status ?? 'active', home, o.status === 'terminated' ? '2026-01-31' : null],
  );
  return id;
}

/** A unique name for a form. */
export const formName = (what: string) => `${what} ${next()}`;

/** A food-safety checklist: cold holding (a temperature with a corrective action, a yes/no) and cleaning (a choice, a text). */
export function openingChecklist(extra: Record<string, unknown> = {}) {
  return {
    name: formName('Opening checklist'),
    kind: 'checklist',
    sections: [
      {
        id: 'cold',
        title: 'Cold holding',
        questions: [
          { id: 'cooler', type: 'temperature', text: 'Walk-in cooler temperature', unit: 'C', min: '0', max: '5', correctiveAction: { priority: 'high', dueWithinHours: 4 } },
          { id: 'seals', type: 'yes_no', text: 'Door seals intact?' },
        ],
      },
      {
        id: 'clean',
        title: 'Cleaning',
        questions: [
          { id: 'floor', type: 'single_choice', text: 'Floor', options: [{ value: 'clean', label: 'Clean' }, { value: 'dirty', label: 'Dirty', fails: true }] },
          { id: 'notes', type: 'text', text: 'Notes', required: false },
        ],
      },
    ],
    ...extra,
  };
}

/** A scored audit: weights 1, 2, 3 and 4 over two sections, pass mark 80. */
export function brandAudit(extra: Record<string, unknown> = {}) {
  return {
    name: formName('Brand standards audit'),
    kind: 'audit',
    passMark: '80',
    sections: [
      {
        id: 'front',
        title: 'Front of house',
        questions: [
          { id: 'greeting', type: 'yes_no', text: 'Guests greeted within 30 s?', weight: '1' },
          { id: 'uniform', type: 'yes_no', text: 'Uniforms clean?', weight: '2', correctiveAction: { priority: 'low', dueWithinHours: null } },
        ],
      },
      {
        id: 'kitchen',
        title: 'Kitchen',
        questions: [
          { id: 'hot', type: 'temperature', text: 'Hot holding', unit: 'C', min: '63', weight: '3', critical: true },
          { id: 'labels', type: 'yes_no', text: 'Prep labelled and dated?', weight: '4', correctiveAction: {} },
        ],
      },
    ],
    ...extra,
  };
}

/** A person whose permissions of operations reach only `locationIds`. */
export function localPerson(locationIds: string[], extra: Partial<Principal> = {}): Principal {
  const at = [{ type: 'locations' as const, ids: locationIds }];
  const permissions = Object.fromEntries(['checklists.complete', 'checklists.manage', 'audits.read', 'corrective_actions.manage'].map((p) => [p, at]));
  return { kind: 'user', via: 'session', id: 'usr_local', userId: 'usr_local', permissions, ...extra };
}
