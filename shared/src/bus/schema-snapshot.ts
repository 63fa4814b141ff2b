import fs from 'node:fs';
import path from 'node:path';
import { eventJsonSchema, eventTypeSchemas, type JsonSchemaObject } from './schemas';

/**
 * The published event schemas, committed under contracts/event-schemas: one `<type>.json` per
 * catalogued type and `_internal.json` (the generic envelope of internal types). A contract change
 * shows here as a diff the developer regenerates on purpose (`npm run schemas:snapshot`); the
 * registry's BACKWARD check (shared/test/event-schemas.kafka.test.ts) then judges it against the
 * committed version.
 */
export const SCHEMA_SNAPSHOT_DIR = path.resolve(__dirname, '../../../contracts/event-schemas');

/** The internal types' schema file (a name no event type can have: types start with a letter). */
export const INTERNAL_SCHEMA_FILE = '_internal.json';

/** What the contracts generate today, by file name. */
export function generatedSchemaFiles(): Map<string, JsonSchemaObject> {
  const files = new Map<string, JsonSchemaObject>(eventTypeSchemas().map((s) => [`${s.type}.json`, s.schema]));
  files.set(INTERNAL_SCHEMA_FILE, eventJsonSchema());
  return files;
}

export function schemaFileText(schema: JsonSchemaObject): string {
  return JSON.stringify(schema, null, 2) + '\n';
}

/** The committed snapshot, by file name. */
export function readSchemaSnapshot(dir = SCHEMA_SNAPSHOT_DIR): Map<string, JsonSchemaObject> {
  const files = new Map<string, JsonSchemaObject>();
  if (!fs.existsSync(dir)) return files;
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    files.set(name, JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as JsonSchemaObject);
  }
  return files;
}

/** Rewrites the snapshot from the contracts (files of types no longer catalogued are removed). */
export function writeSchemaSnapshot(dir = SCHEMA_SNAPSHOT_DIR): { written: number; removed: string[] } {
  fs.mkdirSync(dir, { recursive: true });
  const files = generatedSchemaFiles();
  const removed = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && !files.has(f));
  for (const name of removed) fs.rmSync(path.join(dir, name));
  for (const [name, schema] of files) fs.writeFileSync(path.join(dir, name), schemaFileText(schema));
  return { written: files.size, removed };
}

if (require.main === module) {
  const { written, removed } = writeSchemaSnapshot();
  console.log(`${written} event schemas written to ${path.relative(process.cwd(), SCHEMA_SNAPSHOT_DIR)}${removed.length ? `; removed ${removed.join(', ')}` : ''}`);
}
