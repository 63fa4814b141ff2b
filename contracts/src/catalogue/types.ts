export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type ServiceName =
  | 'gateway'
  | 'identity'
  | 'organization'
  | 'people'
  | 'time'
  | 'scheduling'
  | 'sales'
  | 'inventory'
  | 'purchasing'
  | 'cash'
  | 'operations'
  | 'equipment'
  | 'communication'
  | 'insights'
  | 'files'
  | 'integrations'
  | 'webhooks';

/** What an integration key needs: a scope, nothing (`-` in the spec), or it is refused (`not allowed`). */
export type KeyRule = { scope: string } | 'any' | 'not_allowed';

/** What a person (session or personal key) needs. */
export type PeopleRule =
  /** a named permission, applied within its reach; `orSelf` = the caller's own data passes without it (the service decides) */
  | { permission: string; orSelf?: boolean }
  | 'anyone'
  | 'self'
  /** no session exists yet (signing in) or host-level operational endpoints */
  | 'public'
  | 'integration_only';

export interface EndpointRow {
  method: HttpMethod;
  /** path relative to {base_url}, exactly as in the spec, e.g. `/shifts/{id}:claim` */
  path: string;
  service: ServiceName;
  key: KeyRule;
  people: PeopleRule;
  /** feature switch key, or null when always on */
  feature: string | null;
  summary: string;
  /**
   * where the row is declared; `project`: rows the project adds where the spec describes a flow
   * without an endpoint (e.g. accepting an invitation)
   */
  source: 'spec' | 'supplement' | 'project';
}

export interface PermissionDef {
  name: string;
  area: string;
  meaning: string;
  /** reaches the permission supports */
  reaches: Array<'everyone' | 'org_units' | 'locations' | 'employee_set'>;
}

export interface FeatureDef {
  key: string;
  parent: string | null;
  label: string;
  /** announced but not yet available */
  planned?: boolean;
}

export interface EventTypeDef {
  type: string;
  area: string;
  planned: boolean;
  /** feature the event belongs to (null = always on) */
  feature: string | null;
  /** scopes of which any one lets an integration subscribe */
  scopes: string[];
  /** the owning service that records it */
  service: ServiceName;
}
