import type { z } from 'zod';
import type { Me, SessionInfo } from '@bop/contracts';

export type MeView = z.output<typeof Me>;
export type SessionView = z.output<typeof SessionInfo>;
