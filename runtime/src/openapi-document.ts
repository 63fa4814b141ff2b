/**
 * The OpenAPI document of this build without a server: every catalogue row that has a handler
 * (`catalogueReport`), every feature switched on — what `GET /api/v1/openapi.json` answers on a
 * deployment serving everything. `npm run lint:openapi` writes it (`node runtime/dist/openapi-document.js <file>`)
 * and lints it with Redocly CLI (redocly.yaml).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApi } from '@bop/contracts';
import { baseConfigSchema, loadConfig } from '@bop/shared';
import { catalogueReport } from './catalogue-report';

export function openApiDocument(serverUrl = 'http://127.0.0.1:8080/api/v1'): Record<string, any> {
  const served = catalogueReport().servedKeys;
  return buildOpenApi({ served, enabledFeature: () => true, serverUrl, errorsBaseUrl: loadConfig(baseConfigSchema, {}).ERRORS_BASE_URL });
}

if (require.main === module) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node runtime/dist/openapi-document.js <output.json>');
    process.exit(2);
  }
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const doc = openApiDocument();
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`${file}: ${Object.keys(doc.paths).length} paths`);
}
