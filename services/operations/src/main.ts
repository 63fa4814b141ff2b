// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('operations');
import { runStandalone } from '@bop/shared';
import { operationsService } from './index';

void runStandalone(operationsService);
