// Validates an OpenAPI document read from stdin; prints { valid, errors }. Run as a child process:
// the validator is ESM-only and jest runs tests as CommonJS.
import { Validator } from '@seriousme/openapi-schema-validator';

let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const res = await validator.validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ valid: res.valid, version: validator.version, errors: res.errors ?? null }));
