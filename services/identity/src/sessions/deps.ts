import type { IdentityConfig } from '../config';
import { sessionPolicy, type SessionPolicy } from './lifetime';
import { SignInLimiter } from './sign-in-limiter';

/** What route files need besides the request: settings and the in-process sign-in limiter. */
export interface Deps {
  config: IdentityConfig;
  policy: SessionPolicy;
  limiter: SignInLimiter;
}

/** The sign-in limiter lives in this process's memory, one per started service. */
export const routeDeps = (config: IdentityConfig): Deps => ({
  config,
  policy: sessionPolicy(config),
  limiter: new SignInLimiter(config.SIGN_IN_MAX_ATTEMPTS, config.SIGN_IN_WINDOW_MINUTES),
});
