import { createHash, randomBytes, randomInt } from 'node:crypto';

/** sha256 hex; tokens and keys are high-entropy, so a fast hash is enough to store them. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `<prefix>` + 32 random bytes, base64url. */
export function randomToken(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an unambiguous alphabet (about 49 bits). */
export function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    if (i === 5) out += '-';
    out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  }
  return out;
}

/** A generated password for the bootstrap owner. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}
