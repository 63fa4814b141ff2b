import { runStandalone } from '@bop/shared';
import { integrationsService } from './index';

void runStandalone(integrationsService);
