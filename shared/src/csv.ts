import { stringify } from 'csv-stringify/sync';

/** A cell that is a number as written (`-12.50`, `3`, `1e3`): a spreadsheet reads it as that number, never as a formula. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** What a spreadsheet would start evaluating: =, +, -, @, a tab or a carriage return first (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell's text: null and undefined empty, objects and arrays as JSON, and text a spreadsheet would
 * run as a formula (`=SUM(A1)`, `@cmd`, `-2+3`) behind a `'` so it stays text; numbers stay numbers.
 */
export function csvCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}

/**
 * Rows as CSV (RFC 4180, csv-stringify): a header row, CRLF line ends, a field quoted when it holds
 * a comma, a quote or a line break; every cell through `csvCellText`. `columns` fixes the header and
 * its order; by default every key of the rows, in the order first seen.
 */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>, columns?: readonly string[]): string {
  const keys = columns ? [...columns] : [];
  if (!columns) for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const records = [keys.map(csvCellText), ...rows.map((row) => keys.map((k) => csvCellText(row[k])))];
  // a lone CR or LF in a field is quoted too (csv-stringify quotes the whole CRLF delimiter only)
  return stringify(records, { record_delimiter: 'windows', quoted_match: /[\r\n]/ });
}
