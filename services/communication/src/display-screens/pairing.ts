import { createHash, randomBytes, randomInt } from 'node:crypto';

/** Letters and digits a person reads off a screen without doubt (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

/** A pairing code as a screen shows it, `K7QM-4XPA`: 8 symbols of 31 (about 2^39.6), drawn with the CSPRNG. */
export function newPairingCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A code as typed by a manager: case, spaces and dashes do not matter. Null when it cannot be a code. */
export function normalizePairingCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== CODE_LENGTH || [...code].some((c) => !ALPHABET.includes(c))) return null;
  return code;
}

/** A secret of 256 random bits (the screen's pairing secret, or its screen token), with its prefix. */
export const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Codes, pairing secrets and screen tokens are stored as their SHA-256 only. */
export const hashOf = (value: string): string => createHash('sha256').update(value).digest('hex');
