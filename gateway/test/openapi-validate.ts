import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Validates with @seriousme/openapi-schema-validator (in a child process: it is ESM-only). */
export function validateOpenApi(doc: unknown): { valid: boolean; version: string; errors: unknown } {
  const out = execFileSync(process.execPath, [path.join(__dirname, 'validate-openapi.mjs')], { input: JSON.stringify(doc), maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString('utf8'));
}
