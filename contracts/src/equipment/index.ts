import { defineOperations } from '../operation-types';
import { assetOperations } from './assets';
import { maintenanceOperations } from './maintenance';
import { workOrderOperations } from './work-orders';

export * from './internal';
export { MeterKind, MeterValue } from './common';
export * from './assets';
export * from './maintenance';
export * from './work-orders';

/** The equipment service's contracts: assets, meter readings, maintenance plans, work orders. */
export const equipmentOperations = defineOperations({
  ...assetOperations,
  ...maintenanceOperations,
  ...workOrderOperations,
});
