import { createService } from '@bop/shared';
import { Department, Location, OrgUnit } from './entities';
import { migrations } from './migrations';
import { locationRoutes } from './routes/locations';
import { orgUnitRoutes } from './routes/org-units';
import { departmentRoutes } from './routes/departments';
import { internalRoutes } from './routes/internal';

export const organizationService = createService({
  name: 'organization',
  entities: [Location, OrgUnit, Department],
  migrations,
  routes: () => [...locationRoutes(), ...orgUnitRoutes(), ...departmentRoutes()],
  internalRoutes: () => internalRoutes(),
});
