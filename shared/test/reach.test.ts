import { assertEmployeeRecordInReach, assertLocationInReach, employeeRecordScope, employeeScopeCondition, reachCoversEmployeeRecord, type ReachSet } from '../src';

const reach = (locations: string[], employees: string[] = [], orgUnits: string[] = []): ReachSet => ({
  everyone: false,
  orgUnitIds: new Set(orgUnits),
  locationIds: new Set(locations),
  employeeSetIds: new Set(employees),
});
const everyone: ReachSet = { everyone: true };
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('reach over records about employees (Authentication rule 4: a location or an employee set)', () => {
  it('a record is covered by Everyone, one of its locations, or its employee in an employee set', () => {
    expect(reachCoversEmployeeRecord(everyone, { locationIds: ['loc_x'], employeeId: null })).toBe(true);
    expect(reachCoversEmployeeRecord(reach(['loc_a']), { locationIds: ['loc_b', 'loc_a'], employeeId: 'emp_9' })).toBe(true);
    expect(reachCoversEmployeeRecord(reach([], ['emp_1']), { locationIds: ['loc_b'], employeeId: 'emp_1' })).toBe(true);
    expect(reachCoversEmployeeRecord(reach(['loc_a'], ['emp_1']), { locationIds: ['loc_b'], employeeId: 'emp_2' })).toBe(false);
    // a record about no one (an open shift) is covered by its location only
    expect(reachCoversEmployeeRecord(reach([], ['emp_1']), { locationIds: ['loc_b'], employeeId: null })).toBe(false);
  });

  it('refuses out_of_reach, naming the location and the employee', () => {
    expect(code(() => assertEmployeeRecordInReach(reach([], ['emp_1']), 'loc_b', 'emp_1'))).toBe('ok');
    expect(code(() => assertEmployeeRecordInReach(reach(['loc_a'], ['emp_1']), 'loc_b', 'emp_2'))).toBe('out_of_reach');
    expect(() => assertEmployeeRecordInReach(reach(['loc_a'], ['emp_1']), 'loc_b', 'emp_2')).toThrow('Your permission reaches neither location loc_b nor employee emp_2.');
    // a location as a whole is not reached by an employee set, and the refusal says so
    expect(() => assertLocationInReach(reach([], ['emp_1']), 'loc_b')).toThrow(/An employee set reaches the records of its employees, not a location as a whole/);
  });

  it('an unresolved org-unit reach is refused rather than guessed, unless the employee set covers the record', () => {
    expect(code(() => assertEmployeeRecordInReach(reach([], [], ['ou_1']), 'loc_b', 'emp_1'))).toBe('out_of_reach');
    expect(code(() => assertEmployeeRecordInReach(reach([], ['emp_1'], ['ou_1']), 'loc_b', 'emp_1'))).toBe('ok');
  });

  it('the scope of a list: the reached locations and the employee sets, or the location asked for', () => {
    expect(employeeRecordScope(everyone, undefined)).toBeUndefined();
    expect(employeeRecordScope(everyone, 'loc_b')).toEqual({ location: 'loc_b', match: 'all' });
    expect(employeeRecordScope(reach(['loc_a']), undefined)).toEqual({ location: { $in: ['loc_a'] }, employee: undefined, match: 'any' });
    expect(employeeRecordScope(reach(['loc_a'], ['emp_1']), undefined)).toEqual({ location: { $in: ['loc_a'] }, employee: { $in: ['emp_1'] }, match: 'any' });
    expect(employeeRecordScope(reach(['loc_a'], ['emp_1']), 'loc_a')).toEqual({ location: 'loc_a', match: 'all' });
    // a location out of reach: only the set's employees' records there
    expect(employeeRecordScope(reach(['loc_a'], ['emp_1']), 'loc_b')).toEqual({ location: 'loc_b', employee: { $in: ['emp_1'] }, match: 'all' });
    expect(code(() => employeeRecordScope(reach(['loc_a']), 'loc_b'))).toBe('out_of_reach');
  });

  it('a scope as one query condition on the fields the store names', () => {
    const by = { location: (ids: string | { $in: string[] }) => ({ locationId: ids }), employee: (ids: { $in: string[] }) => ({ employeeId: ids }) };
    type Row = { locationId: string; employeeId: string };
    expect(employeeScopeCondition<Row>(undefined, by)).toBeUndefined();
    expect(employeeScopeCondition<Row>({ location: 'loc_a', match: 'all' }, by)).toEqual({ locationId: 'loc_a' });
    expect(employeeScopeCondition<Row>({ location: { $in: [] }, employee: { $in: ['emp_1'] }, match: 'any' }, by)).toEqual({ $or: [{ locationId: { $in: [] } }, { employeeId: { $in: ['emp_1'] } }] });
    expect(employeeScopeCondition<Row>({ location: 'loc_b', employee: { $in: ['emp_1'] }, match: 'all' }, by)).toEqual({ $and: [{ locationId: 'loc_b' }, { employeeId: { $in: ['emp_1'] } }] });
  });
});
