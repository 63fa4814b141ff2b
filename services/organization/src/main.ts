import { runStandalone } from '@bop/shared';
import { organizationService } from './index';

void runStandalone(organizationService);
