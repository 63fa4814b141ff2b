import { MASK, type ConfigValue } from '@bop/contracts';
import type { FieldError } from './manifest';

export interface ConfigField {
  key: string;
  secret: boolean;
  required?: boolean;
}

export type ConfigValues = Record<string, ConfigValue>;

const isMissing = (v: ConfigValue | null | undefined) => v === undefined || v === null || v === '';

/** A secret as it is read: `••••` plus its last 4 characters when it is at least 12 long, else `••••` alone. */
export function maskSecret(value: ConfigValue): string {
  const text = String(value);
  return text.length >= 12 ? `${MASK}${text.slice(-4)}` : MASK;
}

/** Config values as the API shows them: secrets masked, never the value. */
export function maskConfig(fields: ConfigField[], values: ConfigValues): ConfigValues {
  const secret = new Set(fields.filter((f) => f.secret).map((f) => f.key));
  const out: ConfigValues = {};
  for (const [key, value] of Object.entries(values)) out[key] = secret.has(key) ? maskSecret(value) : value;
  return out;
}

/** Required keys without a value. */
export function missingConfig(fields: ConfigField[], values: ConfigValues): string[] {
  return fields.filter((f) => f.required && isMissing(values[f.key])).map((f) => f.key);
}

/** Values at registration: only declared keys, every required one present. */
export function configErrors(fields: ConfigField[], values: ConfigValues, prefix = 'config'): FieldError[] {
  const declared = new Set(fields.map((f) => f.key));
  const errors: FieldError[] = [];
  for (const key of Object.keys(values)) {
    if (!declared.has(key)) errors.push({ path: `${prefix}.${key}`, message: 'Not declared in the manifest.' });
  }
  for (const key of missingConfig(fields, values)) errors.push({ path: `${prefix}.${key}`, message: 'Required by the manifest.' });
  return errors;
}

/**
 * Merges a PATCH into the stored values (null removes a key). A secret sent back exactly as it was
 * read (masked) leaves the stored secret as it is, so clients may PATCH what they fetched.
 */
export function applyConfigPatch(
  fields: ConfigField[],
  current: ConfigValues,
  patch: Record<string, ConfigValue | null>,
): { values: ConfigValues; errors: FieldError[] } {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const errors: FieldError[] = [];
  const values: ConfigValues = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    const field = byKey.get(key);
    if (!field) {
      errors.push({ path: key, message: 'Not declared in the manifest.' });
      continue;
    }
    if (value === null) {
      if (field.required) errors.push({ path: key, message: 'Required by the manifest; it cannot be removed.' });
      else delete values[key];
      continue;
    }
    if (field.secret && key in current && value === maskSecret(current[key])) continue;
    if (field.required && isMissing(value)) {
      errors.push({ path: key, message: 'Required by the manifest; it cannot be empty.' });
      continue;
    }
    values[key] = value;
  }
  return { values, errors };
}

/** After a manifest change: values of keys no longer declared are dropped. */
export function keepDeclared(fields: ConfigField[], values: ConfigValues): ConfigValues {
  const declared = new Set(fields.map((f) => f.key));
  return Object.fromEntries(Object.entries(values).filter(([k]) => declared.has(k)));
}

export function sameValues(a: ConfigValues, b: ConfigValues): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b && a[k] === b[k]);
}
