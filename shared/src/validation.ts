import type { z } from 'zod';
import type { FieldError } from './errors';

/** `['lines', 0, 'quantity']` → `lines[0].quantity` (the spec's field path form). */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

export function zodFieldErrors(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: formatPath([...prefix, ...issue.path, key]), message: 'Unknown field.' });
      continue;
    }
    if (issue.code === 'invalid_union' && 'errors' in issue && Array.isArray(issue.errors) && issue.errors.length > 0) {
      out.push({ path: formatPath([...prefix, ...issue.path]), message: issue.message });
      continue;
    }
    out.push({ path: formatPath([...prefix, ...issue.path]), message: issue.message });
  }
  return out;
}
