import { createService } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { Assignment, User } from './users/entities';
import { Role } from './roles/entities';
import { Session } from './sessions/entities';
import { ApiKey, IntegrationState } from './api-keys/entities';
import { MfaChallenge, RecoveryCode } from './mfa/entities';
import { Invitation } from './invitations/entities';
import { EmailLog } from './email/entities';
import { FeatureSwitch } from './features/entities';
import { CompanySettings } from './company-settings/entities';
import { bootstrap } from './bootstrap/store';
import { sessionPolicy } from './sessions/lifetime';
import { routeDeps } from './sessions/deps';
import { authRoutes } from './sessions/routes';
import { meRoutes } from './me/routes';
import { mfaRoutes } from './mfa/routes';
import { apiKeyRoutes } from './api-keys/routes';
import { userRoutes } from './users/routes';
import { invitationRoutes } from './invitations/routes';
import { roleRoutes } from './roles/routes';
import { featureRoutes } from './features/routes';
import { companySettingsRoutes } from './company-settings/routes';
import { internalRoutes } from './internal/routes';
import { personalDataRoutes } from './personal-data/routes';
import { emailWorker } from './email/email-worker';
import { userConsumers } from './users/consumers';
import { emailRequestConsumer } from './email/consumers';

export { identityAdmin } from './users/admin';
export { emailAdmin } from './email/admin';
export { configSchema } from './config';

export const identityService = createService({
  name: 'identity',
  configSchema,
  // the kit opens the transaction of every write and commits it with the unit's events
  entities: [User, Role, Assignment, Session, ApiKey, IntegrationState, MfaChallenge, RecoveryCode, Invitation, EmailLog, FeatureSwitch, CompanySettings],
  migrations,
  consumers: () => [...userConsumers, emailRequestConsumer],
  routes: ({ config }) => {
    const deps = routeDeps(config);
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
  internalRoutes: ({ config }) => [...internalRoutes(sessionPolicy(config)), ...personalDataRoutes()],
  workers: (svc) => [emailWorker(svc)],
  onStart: async ({ write, config, log }) => {
    const { created, generatedPassword } = await write((w) => bootstrap(w, { email: config.BOOTSTRAP_ADMIN_EMAIL, password: config.BOOTSTRAP_ADMIN_PASSWORD }));
    if (!created) return;
    log.info({ userId: created.id, email: created.email }, 'bootstrap owner created');
    // printed once: later starts find a user and create nobody
    if (generatedPassword) console.log(`[identity] bootstrap owner ${created.email} created with password: ${generatedPassword}  (shown once; change it or keep it safe)`);
  },
});
