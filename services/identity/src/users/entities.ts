import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { Reach } from '@bop/shared';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().primary(),
    email: p.string(),
    name: p.string().nullable(),
    locale: p.string(),
    status: p.string().$type<'active' | 'deactivated'>(),
    passwordHash: p.text().nullable(),
    employeeId: p.string().nullable(),
    /** confirmed TOTP secret (base32) */
    totpSecret: p.string().nullable(),
    /** secret of an enrolment not yet confirmed */
    totpPendingSecret: p.string().nullable(),
    /** last accepted TOTP time step, so a code is not accepted twice */
    totpLastStep: p.integer().nullable(),
    mfaEnrolledAt: p.datetime().nullable(),
    lastSignInAt: p.datetime().nullable(),
    deactivatedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    version: p.integer(),
  },
});
export type User = InferEntity<typeof User>;

export const Assignment = defineEntity({
  name: 'Assignment',
  tableName: 'assignments',
  properties: {
    id: p.string().primary(),
    userId: p.string(),
    roleId: p.string(),
    reach: p.json<Reach>(),
    createdAt: p.datetime(),
  },
});
export type Assignment = InferEntity<typeof Assignment>;
