/** Who a time-off policy covers (spec: policies with eligible employees), decided on the employee replica's fields. */

export interface Eligibility {
  locationIds: readonly string[];
  departmentIds: readonly string[];
  positions: readonly string[];
}

export interface EligibleEmployee {
  homeLocationId: string;
  locationIds: readonly string[];
  departmentId: string | null;
  positions: readonly string[];
}

/**
 * Eligible when every non-empty list matches (an empty list means everyone): a location that is the
 * employee's home or one of their further locations, their department, any position they hold
 * (case-insensitive).
 */
export function isEligible(e: Eligibility, employee: EligibleEmployee): boolean {
  if (e.locationIds.length > 0 && !e.locationIds.some((l) => l === employee.homeLocationId || employee.locationIds.includes(l))) return false;
  if (e.departmentIds.length > 0 && (employee.departmentId === null || !e.departmentIds.includes(employee.departmentId))) return false;
  if (e.positions.length > 0) {
    const held = new Set(employee.positions.map((p) => p.toLowerCase()));
    if (!e.positions.some((p) => held.has(p.toLowerCase()))) return false;
  }
  return true;
}

/** How narrowly a policy targets: the number of its non-empty lists. */
const specificity = (e: Eligibility) => [e.locationIds, e.departmentIds, e.positions].filter((l) => l.length > 0).length;

/**
 * The policy that governs an employee's balance of one type, among that type's policies: the eligible
 * one that targets most narrowly (a policy for one location's cooks wins over the company-wide one),
 * the oldest (lowest id) among equals; null when none covers the employee.
 */
export function governingPolicy<P extends { id: string; eligibility: Eligibility }>(policies: readonly P[], employee: EligibleEmployee): P | null {
  let best: P | null = null;
  for (const p of policies) {
    if (!isEligible(p.eligibility, employee)) continue;
    if (!best || specificity(p.eligibility) > specificity(best.eligibility) || (specificity(p.eligibility) === specificity(best.eligibility) && p.id < best.id)) best = p;
  }
  return best;
}
