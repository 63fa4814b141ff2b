// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('insights');
import { runStandalone } from '@bop/shared';
import { insightsService } from './index';

void runStandalone(insightsService);
