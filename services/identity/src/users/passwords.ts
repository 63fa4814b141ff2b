export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;

/** Why a password a person chose is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (password.trim().length === 0) return 'The password is blank.';
  return null;
}

/** Why a person's new password is refused when changing it, or null: the rules above, and it must differ. */
export function newPasswordProblem(current: string, next: string): string | null {
  return passwordProblem(next) ?? (next === current ? 'Choose a password different from the current one.' : null);
}
