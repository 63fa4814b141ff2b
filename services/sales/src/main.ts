import { runStandalone } from '@bop/shared';
import { salesService } from './index';

void runStandalone(salesService);
