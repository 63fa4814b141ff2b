/** Old values of the fields that differ between two API representations (for `data.previous`). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>, ignore: string[] = ['version', 'updatedAt']): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (ignore.includes(key)) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key] ?? null;
  }
  return previous;
}
