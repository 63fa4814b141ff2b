import { OvertimeRulesResolve, PersonalDataExportRequest, type PersonalDataExportAnswer } from '@bop/contracts';
import { internalRoute, ok, type InternalRouteDef } from '@bop/shared';
import { timeDatasets } from './store';
import { effectiveRules } from '../rules/store';

/** Time's internal commands: the personal-data export (`GET /me/export` at people) and the overtime rules in force (scheduling). System principal only. */
export const personalDataInternalRoutes = (): InternalRouteDef[] => [
  internalRoute('POST /internal/personal-data:export', { body: PersonalDataExportRequest }, async (ctx) => {
    const answer: PersonalDataExportAnswer = { service: 'time', datasets: await timeDatasets(ctx, ctx.body.employeeId) };
    return ok(answer);
  }, { transaction: false }),
  internalRoute('POST /internal/overtime-rules:resolve', { body: OvertimeRulesResolve }, async (ctx) => {
    const rules = await effectiveRules(ctx, [...new Set(ctx.body.locationIds)]);
    return ok({ rules: Object.fromEntries([...rules].map(([locationId, r]) => [locationId, r.overtime])) });
  }, { transaction: false }),
];
