import { createService, employeeReplicaConsumers, locationsInOrgUnitsOf, orgReplicaConsumers } from '@bop/shared';
import { configSchema } from './config';
import { migrations } from './migrations';
import { CommunicationLocation } from './locations/entities';
import { CommunicationEmployee } from './employees/entities';
import { CommunicationShift, PublishedShift } from './shifts/entities';
import { shiftReplicaConsumers } from './shifts/consumers';
import { Announcement, AnnouncementRecipient } from './announcements/entities';
import { announcementRoutes } from './announcements/routes';
import { announcementClock } from './announcements/workers';
import { Recognition } from './recognitions/entities';
import { recognitionRoutes } from './recognitions/routes';
import { DisplayMetric } from './display-metrics/entities';
import { displayMetricRoutes } from './display-metrics/routes';
import { displayMetricConsumers } from './display-metrics/consumers';
import { Channel, ChannelMember, Message } from './channels/entities';
import { channelRoutes } from './channels/routes';
import { channelMembershipConsumers } from './channels/consumers';
import { DisplayPairing, DisplayScreen } from './display-screens/entities';
import { displayScreenRoutes } from './display-screens/routes';
import { displayInternalRoutes } from './display-screens/internal-routes';
import { displayStreams } from './display-screens/stream-worker';
import { personalDataInternalRoutes } from './personal-data/internal-routes';
import { EmployeeContact, Notification, NotificationDelivery, NotificationPreference, ScheduleNotice } from './notifications/entities';
import { notificationRoutes } from './notifications/routes';
import { notificationConsumers } from './notifications/consumers';
import { notificationDelivery } from './notifications/workers';

export { configSchema, type CommunicationConfig } from './config';

/**
 * Communication: announcements to an audience (locations, departments, positions, or on shift at a
 * location on a day) fixed at publication, published at once or at `publishAt`, acknowledged by their
 * audience, reminded once past their deadline; recognitions (shout-outs) and the latest display
 * metrics pushed per location; channels (location team, department, group) whose members post
 * messages, location team and department members kept in step with people's events; display screens
 * paired to a location by a code, whose screen token reads that location's display snapshot and live
 * stream; notifications made from other areas' events, in the app and (as each person chooses, held
 * outside their shifts) by email, SMS and push. Replicas of the organization (locations), of people (employees: the
 * audience, who is recognised) and of scheduling's shifts (on shift).
 */
export const communicationService = createService({
  name: 'communication',
  configSchema,
  entities: [CommunicationLocation, CommunicationEmployee, CommunicationShift, Announcement, AnnouncementRecipient, Recognition, DisplayMetric, Channel, ChannelMember, Message, DisplayScreen, DisplayPairing, Notification, NotificationPreference, NotificationDelivery, EmployeeContact, PublishedShift, ScheduleNotice],
  migrations,
  // a person's org-unit reach resolves to the locations of those units (communication's replica of the organization)
  locationsInOrgUnits: locationsInOrgUnitsOf('communication'),
  consumers: () => [...orgReplicaConsumers('communication'), ...employeeReplicaConsumers('communication'), ...shiftReplicaConsumers, ...channelMembershipConsumers, ...notificationConsumers, ...displayMetricConsumers],
  workers: (svc) => [announcementClock(svc), notificationDelivery(svc)],
  routes: () => [...announcementRoutes(), ...recognitionRoutes(), ...displayMetricRoutes(), ...channelRoutes(), ...displayScreenRoutes(), ...notificationRoutes()],
  internalRoutes: (svc) => [...displayInternalRoutes(svc), ...personalDataInternalRoutes()],
  // the live streams of the team-display page open in this process
  onStart: (svc) => displayStreams(svc).start(),
  onClosing: async (svc) => displayStreams(svc).closeStreams(),
  onStop: (svc) => displayStreams(svc).stop(),
});
