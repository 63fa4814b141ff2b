import { defineOperations } from '../operation-types';
import { cashTendersOperations } from './tenders';
import { cashCountsOperations } from './counts';
import { cashDepositsOperations } from './deposits';
import { cashSettlementsOperations } from './settlements';
import { cashBusinessDaysOperations } from './business-days';

export * from './common';
export * from './tenders';
export * from './counts';
export * from './deposits';
export * from './settlements';
export * from './business-days';

export const cashOperations = defineOperations({
  ...cashTendersOperations,
  ...cashCountsOperations,
  ...cashDepositsOperations,
  ...cashSettlementsOperations,
  ...cashBusinessDaysOperations,
});
