import { runStandalone } from '@bop/shared';
import { inventoryService } from './index';

void runStandalone(inventoryService);
