import { runStandalone } from '@bop/shared';
import { purchasingService } from './index';

void runStandalone(purchasingService);
