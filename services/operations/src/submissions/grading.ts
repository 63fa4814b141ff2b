import type { AnswerInput, Form, QuestionResult, SubmittedAnswer } from '@bop/contracts';
import type { FieldError } from '@bop/shared';
import { questionsOf } from '../forms/form-definition';
import { isAnswered, judgeAnswer, readAnswer } from './answer-rules';
import { scoreSubmission, type SubmissionScore } from './scoring';

/** An attachment an answer names: a photo or signature must be an image; other answers' attachments are evidence. */
export interface AnswerAttachment {
  id: string;
  path: string;
  image: boolean;
}

export interface Grading {
  /** field errors of the answers (paths `answers[i]…`): nothing is stored when there are any */
  errors: FieldError[];
  /** one result per question of the form, in form order (without corrective actions yet) */
  results: QuestionResult[];
  score: SubmissionScore;
  attachments: AnswerAttachment[];
}

/**
 * A submission's answers judged against the form version it answered (spec: per-question results,
 * pass or fail by the question's rule, with the reason; score and section scores for scored forms).
 * Each question is answered at most once; a required one must be answered (or marked not applicable
 * where it allows that); answers to questions the version does not have are refused.
 */
export function gradeSubmission(form: Pick<Form, 'id' | 'version' | 'scored' | 'passMark' | 'sections'>, answers: AnswerInput[]): Grading {
  const errors: FieldError[] = [];
  const attachments: AnswerAttachment[] = [];
  const questions = questionsOf(form.sections);
  const byId = new Map(questions.map((x) => [x.question.id, x.question]));
  const given = new Map<string, SubmittedAnswer>();
  answers.forEach((a, i) => {
    const at = `answers[${i}]`;
    const q = byId.get(a.questionId);
    if (!q) {
      errors.push({ path: `${at}.questionId`, message: `Version ${form.version} of form ${form.id} has no question ${a.questionId}.` });
      return;
    }
    if (given.has(q.id)) {
      errors.push({ path: `${at}.questionId`, message: `Question ${q.id} is answered twice.` });
      return;
    }
    const read = readAnswer(q, a, at);
    errors.push(...read.errors);
    given.set(q.id, read.answer);
    read.answer.attachmentIds.forEach((id, k) => attachments.push({ id, path: `${at}.attachmentIds[${k}]`, image: q.type === 'photo' || q.type === 'signature' }));
  });
  const missing = questions.filter(({ question: q }) => q.required && !isAnswered(q, given.get(q.id) ?? null)).map(({ question: q }) => q.id);
  if (missing.length > 0) errors.push({ path: 'answers', message: `Required question${missing.length === 1 ? '' : 's'} not answered: ${missing.join(', ')}.` });

  const judged = questions.map(({ question: q, section }) => {
    const answer = given.get(q.id) ?? null;
    return { question: q, sectionId: section.id, answer, ...(errors.length === 0 ? judgeAnswer(q, answer) : { outcome: 'unanswered' as const, reason: '' }) };
  });
  const score = scoreSubmission(
    form,
    judged.map((j) => ({ questionId: j.question.id, sectionId: j.sectionId, outcome: j.outcome, weight: j.question.weight, critical: j.question.critical })),
  );
  const results: QuestionResult[] = judged.map((j) => ({
    questionId: j.question.id,
    sectionId: j.sectionId,
    text: j.question.text,
    type: j.question.type,
    required: j.question.required,
    critical: j.question.critical,
    weight: j.question.weight,
    answer: j.answer,
    outcome: j.outcome,
    reason: j.reason,
    scored: score.byQuestion.get(j.question.id)!.scored,
    points: score.byQuestion.get(j.question.id)!.points,
    correctiveActionId: null,
  }));
  return { errors, results, score, attachments };
}
