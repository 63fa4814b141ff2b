/** Id prefixes: the spec's (`loc_`, `stx_`, `bat_`, `evt_`, `usr_`, `emp_`, `tsh_`, `req_`) and our short new ones. */
export const idPrefixes = {
  location: 'loc',
  salesTransaction: 'stx',
  batch: 'bat',
  event: 'evt',
  user: 'usr',
  employee: 'emp',
  timesheet: 'tsh',
  request: 'req',
  orgUnit: 'ou',
  department: 'dep',
  role: 'rol',
  assignment: 'asg',
  session: 'ses',
  apiKey: 'key',
  invitation: 'inv',
  mfaChallenge: 'mfa',
  integration: 'int',
  emailLog: 'eml',
  recoveryCode: 'rcv',
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
  integrationLog: 'ilg',
} as const;

export type IdKind = keyof typeof idPrefixes;
