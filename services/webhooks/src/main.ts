import { runStandalone } from '@bop/shared';
import { webhooksService } from './index';

void runStandalone(webhooksService);
