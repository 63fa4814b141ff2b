import { runStandalone } from '@bop/shared';
import { cashService } from './index';

void runStandalone(cashService);
