import Decimal from 'decimal.js';
import type { FieldError } from '@bop/shared';
import type { AnswerInput, AnswerOutcome, FormQuestion, SubmittedAnswer, TemperatureUnit } from '@bop/contracts';
import { hasRule } from '../forms/form-definition';

/**
 * Each question type's rule (spec: Forms — per-question results, pass or fail by the question's
 * rule, with the reason): how an answer of that type is read, and whether it passes.
 */

const MEASURED = /^-?(0|[1-9]\d{0,8})(\.\d{1,4})?$/;

export interface Judgement {
  outcome: AnswerOutcome;
  reason: string;
}

/** The answer as stored, or the field errors that make it unreadable for its question (paths under `at`). */
export function readAnswer(q: FormQuestion, a: AnswerInput, at: string): { answer: SubmittedAnswer; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ path: `${at}.${field}`, message });
  const value = a.value ?? null;
  const attachmentIds = a.attachmentIds ?? [];
  const answer: SubmittedAnswer = { value, unit: a.unit ?? null, attachmentIds, notApplicable: a.notApplicable ?? false, comment: a.comment ?? null };

  if (a.unit !== undefined && q.type !== 'temperature') fail('unit', `Only a temperature answer carries a unit; ${q.id} is a ${q.type} question.`);
  if (new Set(attachmentIds).size !== attachmentIds.length) fail('attachmentIds', 'Each attachment once.');
  if (q.type === 'signature' && attachmentIds.length > 1) fail('attachmentIds', 'A signature is one attachment.');
  if (answer.notApplicable) {
    if (!q.allowNotApplicable) fail('notApplicable', `Question ${q.id} must be answered; it does not allow "not applicable".`);
    if (value !== null) fail('value', 'Send no value with notApplicable.');
    return { answer, errors };
  }
  if (value === null) return { answer, errors };
  switch (q.type) {
    case 'yes_no':
      if (typeof value !== 'boolean') fail('value', 'A yes_no answer is true or false.');
      break;
    case 'number':
    case 'temperature':
      if (typeof value !== 'string' || !MEASURED.test(value)) fail('value', `A ${q.type} answer is a decimal string such as "4" or "-18.5" (at most 4 decimals).`);
      else answer.value = new Decimal(value).toFixed();
      break;
    case 'text':
      if (typeof value !== 'string') fail('value', 'A text answer is a string.');
      else if (value.trim() === '') answer.value = null;
      else if (value.length > q.maxLength) fail('value', `At most ${q.maxLength} characters.`);
      break;
    case 'single_choice':
      if (typeof value !== 'string') fail('value', 'A single_choice answer is one option value.');
      else if (!q.options.some((o) => o.value === value)) fail('value', `Not an option of ${q.id}: use one of ${q.options.map((o) => o.value).join(', ')}.`);
      break;
    case 'multiple_choice':
      if (!Array.isArray(value)) fail('value', 'A multiple_choice answer is an array of option values.');
      else {
        const seen = new Set<string>();
        value.forEach((v, k) => {
          if (!q.options.some((o) => o.value === v)) fail(`value[${k}]`, `Not an option of ${q.id}: use one of ${q.options.map((o) => o.value).join(', ')}.`);
          else if (seen.has(v)) fail(`value[${k}]`, 'Chosen twice.');
          seen.add(v);
        });
      }
      break;
    case 'photo':
    case 'signature':
      fail('value', `A ${q.type} answer is its attachmentIds, not a value.`);
      break;
  }
  return { answer, errors };
}

/** Whether the stored answer answers its question (what `required` asks for). */
export function isAnswered(q: FormQuestion, a: SubmittedAnswer | null): boolean {
  if (!a) return false;
  if (a.notApplicable) return true;
  if (q.type === 'photo' || q.type === 'signature') return a.attachmentIds.length > 0;
  if (Array.isArray(a.value)) return a.value.length > 0;
  return a.value !== null;
}

const DEGREE: Record<TemperatureUnit, string> = { C: '°C', F: '°F' };

/** A temperature in the other unit (°F = °C × 9/5 + 32). */
export function convertTemperature(value: Decimal.Value, from: TemperatureUnit, to: TemperatureUnit): Decimal {
  const v = new Decimal(value);
  if (from === to) return v;
  return from === 'F' ? v.minus(32).times(5).dividedBy(9) : v.times(9).dividedBy(5).plus(32);
}

const shown = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();

/** A measured value against an inclusive range (either end optional), in the question's unit. */
function judgeRange(value: Decimal, min: string | null, max: string | null, text: string, unit: string): Judgement {
  const u = unit ? ` ${unit}` : '';
  if (min !== null && value.lt(min)) return { outcome: 'failed', reason: `${text} is below the minimum ${min}${u}.` };
  if (max !== null && value.gt(max)) return { outcome: 'failed', reason: `${text} is above the maximum ${max}${u}.` };
  if (min === null && max === null) return { outcome: 'answered', reason: `Recorded ${text}.` };
  const range = min !== null && max !== null ? `between ${min} and ${max}${u}` : min !== null ? `at or above ${min}${u}` : `at or below ${max}${u}`;
  return { outcome: 'passed', reason: `${text} is ${range}.` };
}

/** The outcome of a question's answer by its rule, with the reason (the answer already read with `readAnswer`). */
export function judgeAnswer(q: FormQuestion, a: SubmittedAnswer | null): Judgement {
  if (a?.notApplicable) return { outcome: 'not_applicable', reason: 'Marked not applicable.' };
  if (!isAnswered(q, a)) return { outcome: 'unanswered', reason: q.required ? 'Not answered.' : 'Not answered (optional).' };
  const answer = a!;
  switch (q.type) {
    case 'yes_no': {
      const said = answer.value === true ? 'yes' : 'no';
      if (q.expected === null) return { outcome: 'answered', reason: `Answered ${said}.` };
      return answer.value === q.expected
        ? { outcome: 'passed', reason: `Answered ${said}, as expected.` }
        : { outcome: 'failed', reason: `Answered ${said}; ${q.expected ? 'yes' : 'no'} was expected.` };
    }
    case 'number': {
      const v = new Decimal(answer.value as string);
      return judgeRange(v, q.min, q.max, `${v.toFixed()}${q.unit ? ` ${q.unit}` : ''}`, q.unit ?? '');
    }
    case 'temperature': {
      const sentIn = answer.unit ?? q.unit;
      const v = convertTemperature(answer.value as string, sentIn, q.unit);
      const text = sentIn === q.unit ? `${v.toFixed()} ${DEGREE[q.unit]}` : `${new Decimal(answer.value as string).toFixed()} ${DEGREE[sentIn]} (${shown(v)} ${DEGREE[q.unit]})`;
      return judgeRange(v, q.min, q.max, text, DEGREE[q.unit]);
    }
    case 'text':
      return { outcome: 'answered', reason: 'Answered.' };
    case 'single_choice':
    case 'multiple_choice': {
      const chosen = (Array.isArray(answer.value) ? answer.value : [answer.value as string]).map((v) => q.options.find((o) => o.value === v)!);
      const labels = (list: typeof chosen) => list.map((o) => o.label).join(', ');
      const failing = chosen.filter((o) => o.fails);
      if (failing.length > 0) return { outcome: 'failed', reason: `Chose ${labels(failing)}: ${failing.length === 1 ? 'an option that fails' : 'options that fail'}.` };
      return { outcome: hasRule(q) ? 'passed' : 'answered', reason: `Chose ${labels(chosen)}.` };
    }
    case 'photo': {
      const n = answer.attachmentIds.length;
      const photos = `${n} photo${n === 1 ? '' : 's'}`;
      return n < q.minPhotos ? { outcome: 'failed', reason: `${photos}; at least ${q.minPhotos} needed.` } : { outcome: 'passed', reason: `${photos} attached.` };
    }
    case 'signature':
      return { outcome: 'answered', reason: 'Signed.' };
  }
}
