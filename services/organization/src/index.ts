import { createService } from '@bop/shared';
import { configSchema } from './config';
import { Location } from './locations/entities';
import { OrgUnit } from './org-units/entities';
import { Department } from './departments/entities';
import { migrations } from './migrations';
import { locationRoutes } from './locations/routes';
import { internalRoutes } from './locations/internal-routes';
import { orgUnitRoutes } from './org-units/routes';
import { departmentRoutes } from './departments/routes';
import { departmentInternalRoutes } from './departments/internal-routes';

export { configSchema } from './config';

export const organizationService = createService({
  name: 'organization',
  configSchema,
  entities: [Location, OrgUnit, Department],
  migrations,
  routes: () => [...locationRoutes(), ...orgUnitRoutes(), ...departmentRoutes()],
  internalRoutes: () => [...internalRoutes(), ...departmentInternalRoutes()],
});
