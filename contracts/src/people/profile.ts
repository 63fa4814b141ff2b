import { z } from '../zod';
import { EmergencyContact, Employee, PostalAddress } from './employees';

/** `/me/profile`: the caller's own employee record with their emergency contacts. */
export const Profile = Employee.extend({ emergencyContacts: z.array(EmergencyContact) }).openapi('Profile');

/** What employees change themselves: contact details and emergency contacts only. */
export const ProfilePatch = z
  .strictObject({
    preferredName: z.string().trim().min(1).max(100).nullable().optional(),
    email: z.email().max(254).nullable().optional(),
    phone: z.string().trim().min(3).max(40).nullable().optional(),
    address: z.union([PostalAddress, z.null()]).optional(),
    emergencyContacts: z.array(EmergencyContact).max(10).optional(),
  })
  .openapi('ProfilePatch');

export const profileOperations = {
  'GET /me/profile': { response: Profile },
  'PATCH /me/profile': { body: ProfilePatch, response: Profile },
  'GET /me/export': { binaryResponse: true },
};
