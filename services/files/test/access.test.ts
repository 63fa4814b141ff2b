import { canDelete, canRead, reachCovers, type Viewer } from '../src/attachments/access';
import type { ReachSet } from '@bop/shared';

const at = (ids: string[], employees: string[] = []): ReachSet => ({ everyone: false, orgUnitIds: new Set(), locationIds: new Set(ids), employeeSetIds: new Set(employees) });
const viewer = (over: Partial<Viewer> = {}): Viewer => ({ id: 'usr_v', employeeId: null, read: null, manage: null, ...over });
const file = { uploadedById: 'usr_up', employeeId: 'emp_1', locationId: 'loc_a' };

describe('attachment access (spec: Attachments)', () => {
  it('reads: the uploader, the employee concerned, or attachments.read reaching the location', () => {
    expect(canRead(file, viewer({ id: 'usr_up' }))).toBe(true);
    expect(canRead(file, viewer({ employeeId: 'emp_1' }))).toBe(true);
    expect(canRead(file, viewer({ employeeId: 'emp_2' }))).toBe(false);
    expect(canRead(file, viewer({ read: at(['loc_a']) }))).toBe(true);
    expect(canRead(file, viewer({ read: at(['loc_b']) }))).toBe(false);
    expect(canRead(file, viewer({ manage: { everyone: true } }))).toBe(false);
    expect(canRead(file, viewer())).toBe(false);
  });

  it('deletes: the uploader, or attachments.manage reaching the location; never the employee concerned alone', () => {
    expect(canDelete(file, viewer({ id: 'usr_up' }))).toBe(true);
    expect(canDelete(file, viewer({ employeeId: 'emp_1' }))).toBe(false);
    expect(canDelete(file, viewer({ manage: at(['loc_a']) }))).toBe(true);
    expect(canDelete(file, viewer({ manage: at(['loc_b']), read: { everyone: true } }))).toBe(false);
  });

  it('a file of no location is covered by reach Everyone only', () => {
    expect(reachCovers(at(['loc_a']), { locationId: null })).toBe(false);
    expect(reachCovers({ everyone: true }, { locationId: null })).toBe(true);
    expect(reachCovers(null, { locationId: 'loc_a' })).toBe(false);
  });

  it('an employee set reaches the files about its employees, wherever they are, and no other', () => {
    expect(canRead(file, viewer({ read: at([], ['emp_1']) }))).toBe(true);
    expect(canRead(file, viewer({ read: at([], ['emp_2']) }))).toBe(false);
    expect(canRead({ ...file, locationId: null }, viewer({ read: at([], ['emp_1']) }))).toBe(true);
    expect(canRead({ ...file, employeeId: null }, viewer({ read: at([], ['emp_1']) }))).toBe(false);
    expect(canDelete(file, viewer({ manage: at([], ['emp_1']) }))).toBe(true);
    expect(canDelete(file, viewer({ manage: at(['loc_b'], ['emp_2']) }))).toBe(false);
  });
});
