export type {
  HttpMethod,
  ServiceName,
  KeyRule,
  PeopleRule,
  EndpointRow,
  PermissionDef,
  FeatureDef,
  EventTypeDef,
} from './types';
export { endpoints } from './endpoints';
export { permissions, permissionNames } from './permissions';
export { features, featureKeys } from './features';
export { eventTypes } from './events';
export { scopes } from './scopes';
export { emits, emitExemptions, type EmitExemption, type EmitsRow } from './emits';
