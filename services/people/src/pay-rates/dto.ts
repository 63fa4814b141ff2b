import { formatRate } from './rate-in-force';
import type { PayRate } from './entities';

export function payRateDto(r: PayRate) {
  return {
    id: r.id,
    employeeId: r.employeeId,
    type: r.type,
    amount: formatRate(r.amount),
    position: r.position ?? null,
    effectiveDate: r.effectiveDate,
    createdAt: r.createdAt.toISOString(),
    createdBy: r.createdBy as { type: 'user' | 'integration' | 'system' | 'employee'; id: string | null },
  };
}
