import { createService } from '@bop/shared';
import { configSchema, type IdentityConfig } from './config';
import { entities } from './entities';
import { migrations } from './migrations';
import { bootstrap } from './actions/bootstrap';
import { SignInLimiter } from './actions/sign-in-limiter';
import type { SessionPolicy } from './actions/sessions';
import type { Deps } from './routes/deps';
import { authRoutes } from './routes/auth';
import { meRoutes } from './routes/me';
import { mfaRoutes } from './routes/mfa';
import { apiKeyRoutes } from './routes/api-keys';
import { userRoutes } from './routes/users';
import { invitationRoutes } from './routes/invitations';
import { roleRoutes } from './routes/roles';
import { featureRoutes } from './routes/features';
import { companySettingsRoutes } from './routes/company-settings';
import { internalRoutes } from './routes/internal';

export { identityAdmin } from './admin';
export { configSchema } from './config';

const policyOf = (c: IdentityConfig): SessionPolicy => ({
  idleMs: c.SESSION_IDLE_MINUTES * 60_000,
  absoluteMs: c.SESSION_ABSOLUTE_HOURS * 3_600_000,
  mfaChallengeMs: c.MFA_CHALLENGE_MINUTES * 60_000,
});

export const identityService = createService({
  name: 'identity',
  configSchema,
  entities,
  migrations,
  routes: ({ config }) => {
    // the sign-in limiter lives in this process's memory, one per started service
    const deps: Deps = { config, policy: policyOf(config), limiter: new SignInLimiter(config.SIGN_IN_MAX_ATTEMPTS, config.SIGN_IN_WINDOW_MINUTES) };
    return [
      ...authRoutes(deps),
      ...meRoutes(deps),
      ...mfaRoutes(deps),
      ...apiKeyRoutes(),
      ...userRoutes(),
      ...invitationRoutes(deps),
      ...roleRoutes(),
      ...featureRoutes(),
      ...companySettingsRoutes(),
    ];
  },
  internalRoutes: ({ config }) => internalRoutes(policyOf(config)),
  onStart: async ({ orm, config, log }) => {
    const { created, generatedPassword } = await bootstrap(orm.em.fork(), { email: config.BOOTSTRAP_ADMIN_EMAIL, password: config.BOOTSTRAP_ADMIN_PASSWORD });
    if (!created) return;
    log.info({ userId: created.id, email: created.email }, 'bootstrap owner created');
    // printed once: later starts find a user and create nobody
    if (generatedPassword) console.log(`[identity] bootstrap owner ${created.email} created with password: ${generatedPassword}  (shown once; change it or keep it safe)`);
  },
});
