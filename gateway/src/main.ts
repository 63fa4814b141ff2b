// first: tracing instruments http, express, pg and undici as they load (on only with an OTLP endpoint set)
import { startTracing } from '@bop/shared/dist/telemetry/tracing';
startTracing('gateway');
import { serviceTable, type AreaService } from '@bop/contracts';
import { createLogger, runUntilSignal } from '@bop/shared';
import { startGateway } from './index';

/** Standalone gateway (distributed mode): settings from env, SERVICE_URL_<NAME> per service, graceful stop. */
async function main(): Promise<void> {
  const log = createLogger('gateway');
  const env = process.env;
  const databaseUrl = env.DATABASE_URL;
  const key = env.INTERNAL_JWT_PRIVATE_KEY;
  if (!databaseUrl || !key) {
    log.fatal('DATABASE_URL and INTERNAL_JWT_PRIVATE_KEY (PKCS#8 PEM, or base64 of it) are required');
    process.exit(1);
  }
  const serviceUrls: Partial<Record<AreaService, string>> = {};
  for (const name of Object.keys(serviceTable) as AreaService[]) {
    const url = env[`SERVICE_URL_${name.toUpperCase()}`];
    if (url) serviceUrls[name] = url;
  }
  await runUntilSignal('gateway', log, () => startGateway({ env, databaseUrl, internalPrivateKeyPem: key, serviceUrls, logger: log }));
}

void main();
