// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('communication');
import { runStandalone } from '@bop/shared';
import { communicationService } from './index';

void runStandalone(communicationService);
