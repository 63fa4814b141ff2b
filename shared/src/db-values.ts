import { ApiError } from './errors';

/**
 * A value Postgres refused to store while a request was served (SQLSTATE class 22, "data exception":
 * a string longer than its column, a number or date out of the column's range, a character the
 * database cannot hold). The contracts' zod rules should refuse such values first, naming the field;
 * this is the backstop that keeps a value they let through a 422 for the caller, never a 500.
 */
const REFUSED: Record<string, string> = {
  '22001': 'A value is longer than the field allows.',
  '22003': 'A number is out of the range the field allows.',
  '22007': 'A date or time is not valid.',
  '22008': 'A date or time is out of the range the field allows.',
  '22021': 'A text holds a character that cannot be stored.',
  '22P05': 'A text holds a character that cannot be stored.',
  '22P02': 'A value does not have the form the field needs.',
  '2200N': 'A text holds a character that cannot be stored.',
  '22025': 'A text holds an escape that cannot be stored.',
};

export function valueRefusedByDatabase(err: unknown, depth = 0): ApiError | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as { code?: unknown; sqlState?: unknown; message?: unknown; cause?: unknown };
  for (const code of [e.code, e.sqlState]) {
    if (typeof code === 'string' && REFUSED[code]) return new ApiError('validation_error', `${REFUSED[code]} The database refused to store it.`);
  }
  // a NUL inside a statement's text (MikroORM inlines values into it) ends the protocol message early:
  // Postgres answers 08P01 "invalid message format" — a bad value, not a lost connection
  if (e.code === '08P01' && typeof e.message === 'string' && /invalid message format/.test(e.message)) {
    return new ApiError('validation_error', `${REFUSED['22021']} The database refused to store it.`);
  }
  return valueRefusedByDatabase(e.cause, depth + 1);
}
