import { addDays } from '@bop/shared';
import { localDate, planDueState, readingOrderError, readingTotal, serviceTotalAt } from '../src/maintenance/due-rules';

const datePlan = (nextDueDate: string, cycle = 1) => ({ intervalDays: 7, nextDueDate, meter: null, intervalUnits: null, nextDueTotal: null, cycle });
const meterPlan = (nextDueTotal: string, cycle = 1) => ({ intervalDays: null, nextDueDate: null, meter: 'running_hours' as const, intervalUnits: '250', nextDueTotal, cycle });

describe('planDueState', () => {
  it('a date plan is due from its day on, overdue after it; its occurrence is its cycle and date', () => {
    expect(planDueState(datePlan('2026-06-08'), '2026-06-07', null)).toMatchObject({ due: false, overdue: false, daysOverdue: -1, reason: 'due on 2026-06-08, in 1 day' });
    expect(planDueState(datePlan('2026-06-08'), '2026-06-08', null)).toMatchObject({ due: true, overdue: false, daysOverdue: 0, key: '1:date:2026-06-08', reason: 'due today (2026-06-08)' });
    expect(planDueState(datePlan('2026-06-08', 3), '2026-06-10', null)).toMatchObject({ due: true, overdue: true, daysOverdue: 2, key: '3:date:2026-06-08', reason: 'due on 2026-06-08, 2 days overdue' });
  });

  it('a meter plan is due when the lifetime total reaches the threshold; the threshold shown in the meter\'s own values', () => {
    expect(planDueState(meterPlan('350'), 'x', { value: '349.9999', total: '349.9999' })).toMatchObject({ due: false, dueAtValue: '350' });
    expect(planDueState(meterPlan('350'), 'x', { value: '350', total: '350' })).toMatchObject({ due: true, overdue: false, key: '1:meter:350' });
    // after a reset at 300 the meter shows 80 for a total of 380
    expect(planDueState(meterPlan('350'), 'x', { value: '80', total: '380' })).toMatchObject({ due: true, overdue: true, currentValue: '80', dueAtValue: '50' });
    expect(planDueState(meterPlan('250'), 'x', null)).toMatchObject({ due: false, currentValue: null, dueAtValue: '250', reason: 'running_hours (not read yet) below the threshold 250' });
  });
});

describe('meter readings', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  it('never go backwards, except a reset as the newest reading', () => {
    expect(readingOrderError('cycles', '10', false, { value: '11', readAt: at }, null)).toMatchObject({ field: 'value', message: expect.stringContaining('11') });
    expect(readingOrderError('cycles', '12', false, { value: '11', readAt: at }, { value: '11.5', readAt: at, reset: false })).toMatchObject({ field: 'value' });
    expect(readingOrderError('cycles', '12', false, { value: '11', readAt: at }, { value: '1', readAt: at, reset: true })).toBeNull();
    expect(readingOrderError('cycles', '0', true, { value: '11', readAt: at }, null)).toBeNull();
    expect(readingOrderError('cycles', '0', true, null, { value: '1', readAt: at, reset: false })).toMatchObject({ field: 'reset' });
  });

  it('count lifetime usage across resets (decimals exact)', () => {
    expect(readingTotal(null, '100.1', false)).toBe('100.1');
    expect(readingTotal({ value: '100.1', total: '100.1' }, '100.3', false)).toBe('100.3');
    expect(readingTotal({ value: '100.3', total: '100.3' }, '0.2', true)).toBe('100.5');
    expect(readingTotal({ value: '0.2', total: '100.5' }, '1.2', false)).toBe('101.5');
  });

  it('place a last service on the lifetime scale', () => {
    expect(serviceTotalAt(null, undefined)).toEqual({ total: '0' });
    expect(serviceTotalAt({ value: '80', total: '380' }, undefined)).toEqual({ total: '380' });
    expect(serviceTotalAt({ value: '80', total: '380' }, '30')).toEqual({ total: '330' });
    expect(serviceTotalAt({ value: '80', total: '380' }, '81')).toHaveProperty('error');
  });
});

describe('dates', () => {
  it('local dates by time zone and day arithmetic', () => {
    expect(localDate('America/New_York', new Date('2026-06-08T03:59:00Z'))).toBe('2026-06-07');
    expect(localDate('America/New_York', new Date('2026-06-08T04:00:00Z'))).toBe('2026-06-08');
    expect(addDays('2026-02-25', 7)).toBe('2026-03-04');
    expect(addDays('2026-03-08', -1)).toBe('2026-03-07');
  });
});
