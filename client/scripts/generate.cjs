#!/usr/bin/env node
// The typed SDK in src/generated/ (not committed): the OpenAPI 3.1 document built from the zod
// contracts (the whole catalogue, every feature on — what GET /api/v1/openapi.json answers on a
// deployment serving everything), then @hey-api/openapi-ts (pinned in package.json) with its fetch
// client. Needs contracts/dist (`tsc -b contracts`); skips the generator while the document is
// unchanged, so `npm run build` stays quick.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = path.join(__dirname, '..', 'src', 'generated');
const docFile = path.join(out, 'openapi.json');

async function main() {
  const { buildOpenApi, endpoints, endpointKey } = require('../../contracts/dist');
  const doc = buildOpenApi({
    served: new Set(endpoints.map(endpointKey)),
    enabledFeature: () => true,
    serverUrl: 'http://127.0.0.1:8080/api/v1',
  });
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const force = process.argv.includes('--force');
  if (!force && fs.existsSync(path.join(out, 'sdk.gen.ts')) && fs.existsSync(docFile) && fs.readFileSync(docFile, 'utf8') === text) return;
  const started = Date.now();
  const { createClient } = await import('@hey-api/openapi-ts');
  await createClient({
    input: doc,
    output: { path: out, clean: true },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });
  fs.writeFileSync(docFile, text);
  console.log(`client: SDK generated from the OpenAPI document (${Object.keys(doc.paths).length} paths, ${Date.now() - started} ms)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
