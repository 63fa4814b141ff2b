import type { IdentityConfig } from '../config';
import type { SessionPolicy } from './store';
import type { SignInLimiter } from './sign-in-limiter';

/** What route files need besides the request: settings and the in-process sign-in limiter. */
export interface Deps {
  config: IdentityConfig;
  policy: SessionPolicy;
  limiter: SignInLimiter;
}
