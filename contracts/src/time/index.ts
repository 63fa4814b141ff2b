import { defineOperations } from '../operation-types';
import { ruleOperations } from './rules';
import { punchOperations } from './punches';
import { timesheetOperations } from './timesheets';
import { correctionOperations } from './corrections';
import { mePayOperations } from './me';
import { timeOffOperations } from './time-off';

export * from './rules';
export * from './punches';
export * from './timesheets';
export * from './corrections';
export * from './me';
export * from './time-off';

export const timeOperations = defineOperations({
  ...ruleOperations,
  ...punchOperations,
  ...timesheetOperations,
  ...correctionOperations,
  ...mePayOperations,
  ...timeOffOperations,
});
