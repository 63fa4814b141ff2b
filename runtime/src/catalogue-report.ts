import { endpoints, endpointKey, type ServiceName } from '@bop/contracts';
import { baseConfigSchema, loadConfig, type ServiceDefinition, type ServiceRuntime } from '@bop/shared';
import { serviceDefinitions } from './services';

export interface CatalogueReport {
  served: number;
  total: number;
  byService: Array<{ service: ServiceName; served: number; total: number }>;
  servedKeys: Set<string>;
}

/** Route factories only declare; they get the default config and nothing else (no database, no port). */
function declaredOnly(def: ServiceDefinition<any>): ServiceRuntime<any> {
  const config = loadConfig(baseConfigSchema.extend(def.configSchema?.shape ?? {}), {});
  return { name: def.name, schema: def.name, config } as ServiceRuntime<any>;
}

/** Which catalogue rows have a handler in this build (route factories only declare; nothing starts). */
export function catalogueReport(): CatalogueReport {
  const servedKeys = new Set(serviceDefinitions.flatMap((d) => d.routes(declaredOnly(d)).map((r) => r.key)));
  // the gateway serves its host-level rows itself
  for (const row of endpoints) if (row.service === 'gateway') servedKeys.add(endpointKey(row));
  const services = [...new Set(endpoints.map((e) => e.service))];
  return {
    served: endpoints.filter((e) => servedKeys.has(endpointKey(e))).length,
    total: endpoints.length,
    byService: services.map((service) => {
      const rows = endpoints.filter((e) => e.service === service);
      return { service, total: rows.length, served: rows.filter((e) => servedKeys.has(endpointKey(e))).length };
    }),
    servedKeys,
  };
}

export function formatCatalogueReport(r: CatalogueReport): string {
  const lines = [`served ${r.served} of ${r.total} endpoints`];
  for (const s of r.byService) lines.push(`  ${s.service.padEnd(14)} ${String(s.served).padStart(3)} / ${s.total}`);
  return lines.join('\n');
}

if (require.main === module) console.log(formatCatalogueReport(catalogueReport()));
