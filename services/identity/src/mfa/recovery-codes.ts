export const RECOVERY_CODE_COUNT = 10;

/** Recovery codes are compared case-insensitively and without spaces or dashes. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(code.trim());
}
