import Decimal from 'decimal.js';
import type { AnswerOutcome, FormSection, SectionScore } from '@bop/contracts';

/**
 * Scores of a submission (spec: Forms — score and section scores for scored forms). A scored answer
 * is a passed or failed one of a question with a weight above 0 on a scored form; it earns its weight
 * when passed. A score is the percent of the scored weight earned, to 2 decimals (half up).
 */

export interface JudgedAnswer {
  questionId: string;
  sectionId: string;
  outcome: AnswerOutcome;
  weight: string;
  critical: boolean;
}

export interface ScoredAnswer {
  scored: boolean;
  /** the weight earned; null when not scored */
  points: string | null;
}

export interface SubmissionScore {
  score: string | null;
  points: string | null;
  maxPoints: string | null;
  passed: boolean;
  failedCount: number;
  criticalFailed: boolean;
  sectionScores: SectionScore[];
  byQuestion: Map<string, ScoredAnswer>;
}

const fmt = (d: Decimal) => (d.isZero() ? '0' : d.toFixed());
const percent = (points: Decimal, max: Decimal) => (max.isZero() ? null : fmt(points.times(100).dividedBy(max).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)));

export function scoreSubmission(form: { scored: boolean; passMark: string | null; sections: FormSection[] }, answers: JudgedAnswer[]): SubmissionScore {
  const byQuestion = new Map<string, ScoredAnswer>();
  const bySection = new Map<string, { points: Decimal; max: Decimal; failed: number }>(form.sections.map((s) => [s.id, { points: new Decimal(0), max: new Decimal(0), failed: 0 }]));
  let points = new Decimal(0);
  let max = new Decimal(0);
  let failedCount = 0;
  let criticalFailed = false;
  for (const a of answers) {
    const section = bySection.get(a.sectionId)!;
    if (a.outcome === 'failed') {
      failedCount += 1;
      section.failed += 1;
      if (a.critical) criticalFailed = true;
    }
    const scored = form.scored && (a.outcome === 'passed' || a.outcome === 'failed') && new Decimal(a.weight).gt(0);
    if (!scored) {
      byQuestion.set(a.questionId, { scored: false, points: null });
      continue;
    }
    const earned = a.outcome === 'passed' ? new Decimal(a.weight) : new Decimal(0);
    byQuestion.set(a.questionId, { scored: true, points: fmt(earned) });
    points = points.plus(earned);
    max = max.plus(a.weight);
    section.points = section.points.plus(earned);
    section.max = section.max.plus(a.weight);
  }
  const score = form.scored ? percent(points, max) : null;
  // a critical failure fails it whatever the score; a pass mark judges the score; otherwise any failure fails it
  const passed = !criticalFailed && (form.passMark !== null && score !== null ? new Decimal(score).gte(form.passMark) : failedCount === 0);
  return {
    score,
    points: form.scored ? fmt(points) : null,
    maxPoints: form.scored ? fmt(max) : null,
    passed,
    failedCount,
    criticalFailed,
    sectionScores: form.sections.map((s) => {
      const t = bySection.get(s.id)!;
      return {
        sectionId: s.id,
        title: s.title,
        score: form.scored ? percent(t.points, t.max) : null,
        points: form.scored ? fmt(t.points) : null,
        maxPoints: form.scored ? fmt(t.max) : null,
        failedCount: t.failed,
      };
    }),
    byQuestion,
  };
}
