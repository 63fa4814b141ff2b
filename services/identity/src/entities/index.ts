import { User } from './user';
import { Role } from './role';
import { Assignment } from './assignment';
import { Session } from './session';
import { ApiKey } from './api-key';
import { IntegrationState } from './integration-state';
import { MfaChallenge } from './mfa-challenge';
import { RecoveryCode } from './recovery-code';
import { Invitation } from './invitation';
import { EmailLog } from './email-log';
import { FeatureSwitch } from './feature-switch';
import { CompanySettings } from './company-settings';

export { User, Role, Assignment, Session, ApiKey, IntegrationState, MfaChallenge, RecoveryCode, Invitation, EmailLog, FeatureSwitch, CompanySettings };

export const entities = [User, Role, Assignment, Session, ApiKey, IntegrationState, MfaChallenge, RecoveryCode, Invitation, EmailLog, FeatureSwitch, CompanySettings];
