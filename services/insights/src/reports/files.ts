import ExcelJS from 'exceljs';
import { toCsv } from '@bop/shared';
import type { ReportColumn, ReportRow } from './registry';

export const CSV_TYPE = 'text/csv' as const;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' as const;

/** A report's rows as CSV (the kit's toCsv: RFC 4180, a header of the column names, values as the API answers them). */
export function reportCsv(columns: ReportColumn[], rows: ReportRow[]): Buffer {
  return Buffer.from(toCsv(rows, columns.map((c) => c.name)), 'utf8');
}

/**
 * A report's rows as an XLSX workbook (exceljs): one sheet, a header row of the column names; money
 * columns as numbers shown with two decimals, decimal columns with two to six (quantities and unit costs keep six), integers as numbers, text and dates as text
 * (a date stays `YYYY-MM-DD`, never shifted by a time zone).
 */
export async function reportXlsx(title: string, columns: ReportColumn[], rows: ReportRow[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(title.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31));
  sheet.columns = columns.map((c) => ({ header: c.name, key: c.name, width: Math.max(12, c.name.length + 2), style: c.type === 'money' ? { numFmt: '0.00' } : c.type === 'decimal' ? { numFmt: '0.00####' } : {} }));
  for (const row of rows) {
    sheet.addRow(Object.fromEntries(columns.map((c) => {
      const v = row[c.name];
      if (v === null || v === undefined) return [c.name, null];
      return [c.name, c.type === 'money' || c.type === 'decimal' || c.type === 'integer' ? Number(v) : String(v)];
    })));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
