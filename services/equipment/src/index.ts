import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { EquipmentLocation } from './locations/entities';
import { EquipmentEmployee } from './employees/entities';
import { Asset, AssetMeter, AssetMove, MeterReading } from './assets/entities';
import { assetRoutes } from './assets/routes';
import { assetInternalRoutes } from './assets/internal-routes';
import { MaintenanceOccurrence, MaintenancePlan } from './maintenance/entities';
import { maintenanceRoutes } from './maintenance/routes';
import { maintenanceCheck } from './maintenance/workers';
import { WorkOrder, WorkOrderEntry } from './work-orders/entities';
import { workOrderRoutes } from './work-orders/routes';
import { sensorAlarmConsumers } from './work-orders/consumers';

export { configSchema, type EquipmentConfig } from './config';

/**
 * Equipment and assets: assets and their moves between locations, meter readings, maintenance plans by
 * days or meter units (maintenance due, announced once per occurrence; the daily check for date plans),
 * and work orders (by hand, from a plan come due, or from a sensor alarm on an asset). Replicas of the
 * organization (locations) and of people (employees, as assignees).
 */
export const equipmentService = createService({
  name: 'equipment',
  configSchema,
  entities: [EquipmentLocation, EquipmentEmployee, Asset, AssetMove, MeterReading, AssetMeter, MaintenancePlan, MaintenanceOccurrence, WorkOrder, WorkOrderEntry],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (equipment's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('equipment'),
  consumers: () => [...orgReplicaConsumers('equipment'), ...employeeReplicaConsumers('equipment'), ...sensorAlarmConsumers],
  workers: (svc) => [maintenanceCheck(svc)],
  routes: () => [...assetRoutes(), ...maintenanceRoutes(), ...workOrderRoutes()],
  internalRoutes: () => assetInternalRoutes(),
});
