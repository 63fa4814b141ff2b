// Types of emits-check.mjs (the jest run's change-event check) for the TypeScript tests.
export interface RecordedUnit {
  route: string;
  requestId: string | null;
  types: string[];
}
export function readRecorded(dir: string): RecordedUnit[];
export function checkEmits(lines: RecordedUnit[], emits: Record<string, { events: string[] } | { exempt: string }>): { wrong: string[]; seen: string[]; unexercised: string[] };
export function finishEmitsCheck(dir: string | undefined): void;
