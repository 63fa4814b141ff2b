/** Environment a test stack passes to its services. */

/** identity's bootstrap owner password given, so identity prints no generated one. */
export const quietIdentity = { BOOTSTRAP_ADMIN_PASSWORD: 'a-good-long-password-123' };
