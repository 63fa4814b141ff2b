/** A UTC time window, ISO 8601 with an offset (e.g. `2026-12-21T14:00:00Z`), end exclusive. */
export interface DraftWindow {
  start: string;
  end: string;
}

/** How many people of a position are needed during a slot (typically 1 hour or 15 minutes). */
export interface DraftNeedSlot extends DraftWindow {
  positionId: string;
  needed: number;
}

/** A stretch taken out of an employee's availability, and why (for the wording of unmet needs). */
export interface DraftAway extends DraftWindow {
  reason: 'time_off' | 'other_shift' | 'left';
}

/** An employee who holds a needed position but cannot be drafted at all, and why in words. */
export interface DraftLeftOut {
  employeeId: string;
  name: string;
  positionIds: string[];
  /** e.g. "has no pay rate in force on 2026-12-21" (the third person singular, after the name) */
  reason: string;
}

/** An employee who may be given shifts in the draft. */
export interface DraftCandidate {
  employeeId: string;
  name: string;
  positionIds: string[];
  /** hourly rate, a decimal string in the location's currency */
  hourlyRate: string;
  /** when the employee can work in the period: availability less approved time off less shifts they already have (the caller computes it) */
  available: DraftWindow[];
  /** windows the employee would rather work in; hours outside them cost a little when any are given */
  preferred?: DraftWindow[];
  /**
   * Hours already scheduled outside the draft, per workweek: keyed by the workweek's first local date
   * (YYYY-MM-DD), or one number that stands for every workweek the period touches.
   */
  hoursAlreadyScheduled: number | Record<string, number>;
  /** shifts the employee already has outside the draft (any location), near the period: the rest and one-shift-a-day rules count them */
  otherShifts?: DraftWindow[];
  /** what was taken out of the availability to give `available` (time off, other shifts, a leaving date): unmet needs name it */
  away?: DraftAway[];
}

export type DraftWeekStart = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

export interface DraftRules {
  minShiftHours: number;
  maxShiftHours: number;
  /** between the end of one shift and the start of the next */
  minRestHours: number;
  /** one shift a day, so this caps the shift's length */
  maxHoursPerDay?: number;
  /** paid hours in a workweek past which overtime is paid */
  weeklyOvertimeAfter: number;
  overtimeMultiplier: number;
  /** false: no employee passes weeklyOvertimeAfter in a workweek (hours outside the draft included) */
  allowOvertime: boolean;
  /** shifts start on this grid of local time (e.g. 30 → :00 and :30) and last a whole number of steps */
  shiftStartStepMinutes: number;
  /** first day of the workweek; monday when omitted */
  weekStart?: DraftWeekStart;
  /** fairness: the penalty per hour grows by this amount (money) every 4 hours an employee works in a workweek; 0.1 when omitted */
  fairnessWeight?: number;
  /** money per hour worked outside an employee's preferred windows (when they gave any); 0.25 when omitted */
  preferenceWeight?: number;
}

export interface DraftInput {
  needs: DraftNeedSlot[];
  candidates: DraftCandidate[];
  rules: DraftRules;
  /** the location's IANA zone: days, workweeks, the start grid and the wording */
  zone: string;
  /** no shift starts before this instant and needs before it are left out; everything counts when omitted */
  now?: string;
  /** display names of positions for the wording (positionId → name); the id is used when absent */
  positionNames?: Record<string, string>;
  /** employees of a needed position the caller could not make candidates (unmet needs name why) */
  leftOut?: DraftLeftOut[];
}

export interface DraftShift {
  employeeId: string;
  positionId: string;
  start: string;
  end: string;
  hours: number;
  /** of which overtime, counted in the order the workweek's hours are worked */
  overtimeHours: number;
  /** wage for the shift, overtime premium included, a decimal string */
  cost: string;
}

export interface DraftUnmet {
  positionId: string;
  start: string;
  end: string;
  missing: number;
  /** in words, e.g. "2 cooks missing Sat 18:00–20:00: only 3 of 5 cooks are available then" */
  reason: string;
}

export interface DraftResult {
  shifts: DraftShift[];
  /** person-hours of need */
  neededHours: number;
  /** person-hours of need covered (over-coverage not counted) */
  coveredHours: number;
  /** coveredHours / neededHours, 1 when nothing is needed */
  coverage: number;
  /** total wage of the drafted shifts, a decimal string */
  cost: string;
  overtimeHours: number;
  unmet: DraftUnmet[];
  /** how the draft was found, e.g. "milp (HiGHS 1.15.1), optimal, gap 0.00%, 5120 shifts considered" */
  method: string;
}

export interface DraftSolverOptions {
  /** HiGHS stops with its best schedule after this long (the options and the checks come on top); 6 when omitted */
  timeLimitSeconds?: number;
  /** HiGHS stops once its schedule is proved within this relative gap of the optimum; 0.001 when omitted */
  relativeGap?: number;
}

/** The input cannot describe a draft (a bad time, an inverted window, rules that admit no shift). */
export class DraftInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DraftInputError';
  }
}
