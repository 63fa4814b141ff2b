/** One field of a record before and after a change, for the audit trail. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields that differ between two views of a record (`ignore`: bookkeeping such as version). */
export function fieldChanges(before: Record<string, unknown> | null, after: Record<string, unknown>, ignore: readonly string[] = ['version', 'updatedAt', 'createdAt']): FieldChange[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  const changes: FieldChange[] = [];
  for (const field of keys) {
    if (ignore.includes(field)) continue;
    const from = before ? (before[field] ?? null) : null;
    const to = after[field] ?? null;
    if (!same(from, to)) changes.push({ field, from, to });
  }
  return changes;
}
