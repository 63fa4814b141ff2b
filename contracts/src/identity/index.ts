import { IdParam, ListQuery, listEnvelope } from '../common';
import { defineOperations } from '../operation-types';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyListQuery, Me, MfaEnrollment, MfaEnrollmentConfirm, MfaRecoveryCodes, PasswordChange, SessionInfo, SignIn, SignInMfa, SignInResult } from './auth';
import { AssignmentsPut, User, UserListQuery, UserPatch } from './users';
import { Invitation, InvitationAccept, InvitationCreate, InvitationListQuery } from './invitations';
import { Permission, Role, RoleCreate, RoleListQuery, RolePatch } from './roles';
import { Feature, FeatureKeyParam, FeatureListQuery } from './features';
import { CompanySettings, CompanySettingsPatch } from './company-settings';

export * from './reach';
export * from './users';
export * from './auth';
export * from './roles';
export * from './invitations';
export * from './features';
export * from './company-settings';

export const identityOperations = defineOperations({
  'GET /me': { response: Me },
  'GET /auth/session': { response: SessionInfo },
  'POST /auth/sign-in': { body: SignIn, response: SignInResult },
  'POST /auth/sign-in/mfa': { body: SignInMfa, response: SignInResult },
  'POST /auth/mfa/enrollment': { response: MfaEnrollment },
  'POST /auth/mfa/enrollment:confirm': { body: MfaEnrollmentConfirm, response: MfaRecoveryCodes },
  'POST /auth/api-keys': { body: ApiKeyCreate, response: ApiKeyCreated, status: 201 },
  'GET /auth/api-keys': { query: ApiKeyListQuery, response: listEnvelope(ApiKey) },
  'DELETE /auth/api-keys/{id}': { params: IdParam, status: 204 },
  'POST /auth/invitations:accept': { body: InvitationAccept, response: SignInResult, status: 201 },
  'POST /auth/password': { body: PasswordChange, status: 204 },

  'GET /users': { query: UserListQuery, response: listEnvelope(User) },
  'GET /users/{id}': { params: IdParam, response: User },
  'PATCH /users/{id}': { params: IdParam, body: UserPatch, response: User },
  'DELETE /users/{id}': { params: IdParam, response: User },
  'POST /users/{id}:reset-mfa': { params: IdParam, response: User },
  'PUT /users/{id}/assignments': { params: IdParam, body: AssignmentsPut, response: User },

  'GET /invitations': { query: InvitationListQuery, response: listEnvelope(Invitation) },
  'POST /invitations': { body: InvitationCreate, response: Invitation, status: 201 },
  'DELETE /invitations/{id}': { params: IdParam, response: Invitation },

  'GET /roles': { query: RoleListQuery, response: listEnvelope(Role) },
  'POST /roles': { body: RoleCreate, response: Role, status: 201 },
  'PATCH /roles/{id}': { params: IdParam, body: RolePatch, response: Role },
  'DELETE /roles/{id}': { params: IdParam, response: Role },

  'GET /permissions': { query: ListQuery, response: listEnvelope(Permission) },
  'GET /features': { query: FeatureListQuery, response: listEnvelope(Feature) },
  'POST /features/{key}:enable': { params: FeatureKeyParam, response: Feature },
  'POST /features/{key}:disable': { params: FeatureKeyParam, response: Feature },

  'GET /company-settings': { response: CompanySettings },
  'PATCH /company-settings': { body: CompanySettingsPatch, response: CompanySettings },
});
