/**
 * Rows as CSV (RFC 4180): a header of every key in the order first seen, CRLF line ends, fields with
 * a comma, quote or line break quoted; null and missing values empty; objects and arrays as JSON text.
 */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>): string {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(text) || /^[=+\-@\t]/.test(text) ? `"${(/^[=+\-@\t]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"` : text;
  };
  return [keys.map(cell).join(','), ...rows.map((row) => keys.map((k) => cell(row[k])).join(','))].join('\r\n') + '\r\n';
}
