import Decimal from 'decimal.js';
import type { FieldError } from '@bop/shared';
import type { FormKind, FormQuestion, FormSection, QuestionInput, SectionInput } from '@bop/contracts';

/** spec: Forms — a form holds at most this many questions over all its sections. */
export const MAX_QUESTIONS = 500;

/** The scoring terms and sections of a form as sent (create, replace, or a patch merged over the stored form). */
export interface DefinitionInput {
  kind: FormKind;
  scored?: boolean;
  passMark?: string | null;
  sections: Array<SectionInput | FormSection>;
}

export interface Definition {
  scored: boolean;
  passMark: string | null;
  sections: FormSection[];
}

/** Whether the question's rule can fail an answer (the others are recorded as `answered`). */
export function hasRule(q: FormQuestion): boolean {
  switch (q.type) {
    case 'yes_no':
      return q.expected !== null;
    case 'number':
    case 'temperature':
      return q.min !== null || q.max !== null;
    case 'single_choice':
    case 'multiple_choice':
      return q.options.some((o) => o.fails);
    case 'photo':
      return true;
    case 'text':
    case 'signature':
      return false;
  }
}

/** A question with every default filled in and its id assigned (`q<n>`: its position in the form). */
function questionOf(input: QuestionInput | FormQuestion, position: number): FormQuestion {
  const common = {
    id: input.id ?? `q${position}`,
    text: input.text,
    help: input.help ?? null,
    required: input.required,
    weight: new Decimal(input.weight).toFixed(),
    critical: input.critical,
    allowNotApplicable: input.allowNotApplicable,
    correctiveAction: input.correctiveAction ? { priority: input.correctiveAction.priority, dueWithinHours: input.correctiveAction.dueWithinHours } : null,
  };
  const measured = (v: string | null) => (v === null ? null : new Decimal(v).toFixed());
  switch (input.type) {
    case 'yes_no':
      return { ...common, type: 'yes_no', expected: input.expected };
    case 'number':
      return { ...common, type: 'number', min: measured(input.min), max: measured(input.max), unit: input.unit };
    case 'temperature':
      return { ...common, type: 'temperature', min: measured(input.min), max: measured(input.max), unit: input.unit };
    case 'text':
      return { ...common, type: 'text', maxLength: input.maxLength };
    case 'single_choice':
    case 'multiple_choice':
      return { ...common, type: input.type, options: input.options.map((o) => ({ value: o.value, label: o.label, fails: o.fails })) };
    case 'photo':
      return { ...common, type: 'photo', minPhotos: input.minPhotos };
    case 'signature':
      return { ...common, type: 'signature' };
  }
}

/** The rule errors of one question (its field paths under `at`). */
function questionErrors(q: FormQuestion, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if ((q.type === 'number' || q.type === 'temperature') && q.min !== null && q.max !== null && new Decimal(q.max).lt(q.min)) {
    errors.push({ path: `${at}.max`, message: `Must not be below min (${q.min}).` });
  }
  if (q.type === 'single_choice' || q.type === 'multiple_choice') {
    const seen = new Set<string>();
    q.options.forEach((o, k) => {
      if (seen.has(o.value)) errors.push({ path: `${at}.options[${k}].value`, message: `Another option already has the value ${o.value}.` });
      seen.add(o.value);
    });
    if (q.type === 'single_choice' && q.options.every((o) => o.fails)) errors.push({ path: `${at}.options`, message: 'At least one option must pass.' });
  }
  if (q.correctiveAction && !hasRule(q)) {
    errors.push({ path: `${at}.correctiveAction`, message: `A ${q.type} question without a rule that can fail never opens a corrective action.` });
  }
  if (q.critical && !hasRule(q)) errors.push({ path: `${at}.critical`, message: `A ${q.type} question without a rule that can fail cannot be critical.` });
  return errors;
}

/**
 * The sections of a form with defaults and ids assigned, checked as a whole: ids unique in the form,
 * ranges in order, choice values unique, at most MAX_QUESTIONS questions; an audit is always scored,
 * only a scored form has a pass mark, and a scored form has something to score. Field paths are the
 * body's (`sections[1].questions[0].max`).
 */
export function normalizeDefinition(input: DefinitionInput): { definition: Definition; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const scored = input.scored ?? input.kind === 'audit';
  if (input.kind === 'audit' && !scored) errors.push({ path: 'scored', message: 'An audit is always scored.' });
  const passMark = input.passMark == null ? null : new Decimal(input.passMark).toFixed();
  if (passMark !== null && !scored) errors.push({ path: 'passMark', message: 'Only a scored form has a pass mark.' });

  const sectionIds = new Set<string>();
  const questionIds = new Set<string>();
  let position = 0;
  const sections: FormSection[] = input.sections.map((s, i) => {
    const sectionId = s.id ?? `s${i + 1}`;
    if (sectionIds.has(sectionId)) errors.push({ path: `sections[${i}].id`, message: `Another section already has the id ${sectionId}${s.id ? '' : ' (its default); give this one an id'}.` });
    sectionIds.add(sectionId);
    const questions = s.questions.map((raw, j) => {
      position += 1;
      const q = questionOf(raw, position);
      const at = `sections[${i}].questions[${j}]`;
      if (questionIds.has(q.id)) errors.push({ path: `${at}.id`, message: `Another question already has the id ${q.id}${raw.id ? '' : ' (its default); give this one an id'}.` });
      questionIds.add(q.id);
      errors.push(...questionErrors(q, at));
      return q;
    });
    return { id: sectionId, title: s.title, questions };
  });
  if (position > MAX_QUESTIONS) errors.push({ path: 'sections', message: `A form holds at most ${MAX_QUESTIONS} questions; this one has ${position}.` });
  if (scored && !sections.some((s) => s.questions.some((q) => hasRule(q) && new Decimal(q.weight).gt(0)))) {
    errors.push({ path: 'sections', message: 'A scored form needs at least one question with a rule that can fail and a weight above 0.' });
  }
  return { definition: { scored, passMark, sections }, errors };
}

/** Every question of a form with the section it is in, in form order. */
export function questionsOf(sections: FormSection[]): Array<{ question: FormQuestion; section: FormSection }> {
  return sections.flatMap((section) => section.questions.map((question) => ({ question, section })));
}
