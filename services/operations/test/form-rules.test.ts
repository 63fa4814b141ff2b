import { QuestionInput, type AnswerInput, type FormQuestion } from '@bop/contracts';
import { normalizeDefinition } from '../src/forms/form-definition';
import { convertTemperature, judgeAnswer, readAnswer } from '../src/submissions/answer-rules';
import { gradeSubmission } from '../src/submissions/grading';
import { scoreSubmission } from '../src/submissions/scoring';

/** A question as the form stores it (defaults filled in). */
function question(input: Record<string, unknown>): FormQuestion {
  const { definition, errors } = normalizeDefinition({ kind: 'checklist', sections: [{ title: 'S', questions: [QuestionInput.parse({ text: 'Q', ...input })] }] });
  expect(errors).toEqual([]);
  return definition.sections[0].questions[0];
}

/** The outcome and reason of one answer (read, then judged). */
function judge(q: FormQuestion, a: Partial<AnswerInput> | null) {
  if (a === null) return judgeAnswer(q, null);
  const read = readAnswer(q, { questionId: q.id, ...a }, 'answers[0]');
  expect(read.errors).toEqual([]);
  return judgeAnswer(q, read.answer);
}

const errorsOf = (q: FormQuestion, a: Partial<AnswerInput>) => readAnswer(q, { questionId: q.id, ...a }, 'answers[0]').errors;

describe('each question type\'s pass/fail rule', () => {
  it('yes_no: the expected answer passes (yes by default), the other fails; without an expected answer either is recorded', () => {
    const q = question({ type: 'yes_no' });
    expect(judge(q, { value: true })).toEqual({ outcome: 'passed', reason: 'Answered yes, as expected.' });
    expect(judge(q, { value: false })).toEqual({ outcome: 'failed', reason: 'Answered no; yes was expected.' });
    const pests = question({ type: 'yes_no', expected: false });
    expect(judge(pests, { value: true })).toEqual({ outcome: 'failed', reason: 'Answered yes; no was expected.' });
    expect(judge(question({ type: 'yes_no', expected: null }), { value: false })).toEqual({ outcome: 'answered', reason: 'Answered no.' });
    expect(errorsOf(q, { value: 'yes' })).toEqual([{ path: 'answers[0].value', message: 'A yes_no answer is true or false.' }]);
  });

  it('number: within the inclusive range passes, below or above fails; without a range it is recorded', () => {
    const q = question({ type: 'number', min: '10', max: '20', unit: 'ppm' });
    expect(judge(q, { value: '10' })).toEqual({ outcome: 'passed', reason: '10 ppm is between 10 and 20 ppm.' });
    expect(judge(q, { value: '20.0' }).outcome).toBe('passed');
    expect(judge(q, { value: '9.99' })).toEqual({ outcome: 'failed', reason: '9.99 ppm is below the minimum 10 ppm.' });
    expect(judge(q, { value: '20.01' })).toEqual({ outcome: 'failed', reason: '20.01 ppm is above the maximum 20 ppm.' });
    expect(judge(question({ type: 'number', min: '1' }), { value: '1' }).reason).toBe('1 is at or above 1.');
    expect(judge(question({ type: 'number' }), { value: '3' })).toEqual({ outcome: 'answered', reason: 'Recorded 3.' });
    expect(errorsOf(q, { value: 12 as never })[0].path).toBe('answers[0].value');
    expect(errorsOf(q, { value: '1e3' })[0].path).toBe('answers[0].value');
    expect(errorsOf(q, { value: '5', unit: 'C' })).toEqual([{ path: 'answers[0].unit', message: expect.stringContaining('Only a temperature answer carries a unit') }]);
  });

  it('temperature: judged in the question\'s unit; an answer in the other unit is converted first', () => {
    const q = question({ type: 'temperature', unit: 'C', min: '0', max: '5' });
    expect(judge(q, { value: '3.5' })).toEqual({ outcome: 'passed', reason: '3.5 °C is between 0 and 5 °C.' });
    expect(judge(q, { value: '7.5' })).toEqual({ outcome: 'failed', reason: '7.5 °C is above the maximum 5 °C.' });
    expect(judge(q, { value: '-0.5' })).toEqual({ outcome: 'failed', reason: '-0.5 °C is below the minimum 0 °C.' });
    expect(judge(q, { value: '41', unit: 'F' })).toEqual({ outcome: 'passed', reason: '41 °F (5 °C) is between 0 and 5 °C.' });
    expect(judge(q, { value: '42', unit: 'F' })).toEqual({ outcome: 'failed', reason: '42 °F (5.56 °C) is above the maximum 5 °C.' });
    const freezer = question({ type: 'temperature', unit: 'F', max: '0' });
    expect(judge(freezer, { value: '-18', unit: 'C' })).toEqual({ outcome: 'passed', reason: '-18 °C (-0.4 °F) is at or below 0 °F.' });
    expect(convertTemperature('100', 'C', 'F').toFixed()).toBe('212');
    expect(convertTemperature('212', 'F', 'C').toFixed()).toBe('100');
  });

  it('text: any text is recorded (no rule); longer than its maxLength is refused', () => {
    const q = question({ type: 'text', maxLength: 5 });
    expect(judge(q, { value: 'fine' })).toEqual({ outcome: 'answered', reason: 'Answered.' });
    expect(errorsOf(q, { value: 'too long' })).toEqual([{ path: 'answers[0].value', message: 'At most 5 characters.' }]);
    expect(judge(question({ type: 'text', required: false }), { value: '   ' })).toEqual({ outcome: 'unanswered', reason: 'Not answered (optional).' });
  });

  it('single and multiple choice: an option that fails fails the answer; unknown or repeated options are refused', () => {
    const options = [{ value: 'clean', label: 'Clean' }, { value: 'dirty', label: 'Dirty', fails: true }, { value: 'wet', label: 'Wet', fails: true }];
    const single = question({ type: 'single_choice', options });
    expect(judge(single, { value: 'clean' })).toEqual({ outcome: 'passed', reason: 'Chose Clean.' });
    expect(judge(single, { value: 'dirty' })).toEqual({ outcome: 'failed', reason: 'Chose Dirty: an option that fails.' });
    expect(errorsOf(single, { value: 'sticky' })[0]).toEqual({ path: 'answers[0].value', message: expect.stringContaining('use one of clean, dirty, wet') });
    const multiple = question({ type: 'multiple_choice', options });
    expect(judge(multiple, { value: ['clean'] }).outcome).toBe('passed');
    expect(judge(multiple, { value: ['clean', 'dirty', 'wet'] })).toEqual({ outcome: 'failed', reason: 'Chose Dirty, Wet: options that fail.' });
    expect(errorsOf(multiple, { value: ['clean', 'clean', 'mud'] }).map((e) => e.path)).toEqual(['answers[0].value[1]', 'answers[0].value[2]']);
    const noRule = question({ type: 'single_choice', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] });
    expect(judge(noRule, { value: 'b' })).toEqual({ outcome: 'answered', reason: 'Chose B.' });
  });

  it('photo and signature: answered by attachments; fewer photos than asked fail; a signature is recorded', () => {
    const photos = question({ type: 'photo', minPhotos: 2 });
    expect(judge(photos, { attachmentIds: ['att_1', 'att_2'] })).toEqual({ outcome: 'passed', reason: '2 photos attached.' });
    expect(judge(photos, { attachmentIds: ['att_1'] })).toEqual({ outcome: 'failed', reason: '1 photo; at least 2 needed.' });
    expect(errorsOf(photos, { value: 'x' })[0].path).toBe('answers[0].value');
    expect(errorsOf(photos, { attachmentIds: ['att_1', 'att_1'] })[0].path).toBe('answers[0].attachmentIds');
    const sign = question({ type: 'signature' });
    expect(judge(sign, { attachmentIds: ['att_9'] })).toEqual({ outcome: 'answered', reason: 'Signed.' });
    expect(errorsOf(sign, { attachmentIds: ['att_1', 'att_2'] })).toEqual([{ path: 'answers[0].attachmentIds', message: 'A signature is one attachment.' }]);
  });

  it('not applicable only where the question allows it; an unanswered question is unanswered', () => {
    const q = question({ type: 'yes_no', allowNotApplicable: true });
    expect(judge(q, { notApplicable: true })).toEqual({ outcome: 'not_applicable', reason: 'Marked not applicable.' });
    expect(errorsOf(question({ type: 'yes_no' }), { notApplicable: true })[0].path).toBe('answers[0].notApplicable');
    expect(errorsOf(q, { notApplicable: true, value: true })[0].path).toBe('answers[0].value');
    expect(judge(q, null)).toEqual({ outcome: 'unanswered', reason: 'Not answered.' });
  });
});

describe('scoring with weights', () => {
  const { definition } = normalizeDefinition({
    kind: 'audit',
    passMark: '80',
    sections: [
      { id: 'a', title: 'A', questions: [QuestionInput.parse({ id: 'q1', type: 'yes_no', text: 'One', weight: '1' }), QuestionInput.parse({ id: 'q2', type: 'yes_no', text: 'Two', weight: '2' })] },
      {
        id: 'b',
        title: 'B',
        questions: [
          QuestionInput.parse({ id: 'q3', type: 'yes_no', text: 'Three', weight: '3', critical: true }),
          QuestionInput.parse({ id: 'q4', type: 'yes_no', text: 'Four', weight: '4', allowNotApplicable: true }),
          QuestionInput.parse({ id: 'q5', type: 'text', text: 'Notes', required: false }),
        ],
      },
    ],
  });
  const form = { id: 'frm_x', version: 1, ...definition };
  const answers = (q1: boolean, q2: boolean, q3: boolean, q4: boolean | 'na'): AnswerInput[] => [
    { questionId: 'q1', value: q1 },
    { questionId: 'q2', value: q2 },
    { questionId: 'q3', value: q3 },
    q4 === 'na' ? { questionId: 'q4', notApplicable: true } : { questionId: 'q4', value: q4 },
  ];

  it('earns the weight of each passed answer; the score is the percent of the scored weight, by section too', () => {
    const g = gradeSubmission(form, answers(true, false, true, true));
    expect(g.errors).toEqual([]);
    expect(g.score).toMatchObject({ score: '80', points: '8', maxPoints: '10', passed: true, failedCount: 1, criticalFailed: false });
    expect(g.score.sectionScores).toEqual([
      { sectionId: 'a', title: 'A', score: '33.33', points: '1', maxPoints: '3', failedCount: 1 },
      { sectionId: 'b', title: 'B', score: '100', points: '7', maxPoints: '7', failedCount: 0 },
    ]);
    expect(g.results.map((r) => [r.questionId, r.outcome, r.scored, r.points])).toEqual([
      ['q1', 'passed', true, '1'],
      ['q2', 'failed', true, '0'],
      ['q3', 'passed', true, '3'],
      ['q4', 'passed', true, '4'],
      ['q5', 'unanswered', false, null],
    ]);
  });

  it('below the pass mark fails; not applicable leaves its weight out; a failed critical question fails whatever the score', () => {
    expect(gradeSubmission(form, answers(false, true, true, false)).score).toMatchObject({ score: '50', passed: false });
    expect(gradeSubmission(form, answers(true, false, true, 'na')).score).toMatchObject({ score: '66.67', points: '4', maxPoints: '6', passed: false });
    expect(gradeSubmission(form, answers(true, true, true, 'na')).score).toMatchObject({ score: '100', passed: true });
    expect(gradeSubmission(form, answers(true, true, false, true)).score).toMatchObject({ score: '70', passed: false, criticalFailed: true });
  });

  it('an unscored form has no score; it passes when nothing failed', () => {
    const s = scoreSubmission({ scored: false, passMark: null, sections: form.sections }, [{ questionId: 'q1', sectionId: 'a', outcome: 'failed', weight: '1', critical: false }]);
    expect(s).toMatchObject({ score: null, points: null, maxPoints: null, passed: false, failedCount: 1 });
    expect(s.sectionScores[0]).toEqual({ sectionId: 'a', title: 'A', score: null, points: null, maxPoints: null, failedCount: 1 });
  });

  it('refuses unknown, repeated and missing required answers with their paths', () => {
    const g = gradeSubmission(form, [{ questionId: 'q1', value: true }, { questionId: 'q1', value: false }, { questionId: 'nope', value: true }]);
    expect(g.errors).toEqual([
      { path: 'answers[1].questionId', message: 'Question q1 is answered twice.' },
      { path: 'answers[2].questionId', message: 'Version 1 of form frm_x has no question nope.' },
      { path: 'answers', message: 'Required questions not answered: q2, q3, q4.' },
    ]);
  });
});

describe('form definitions', () => {
  const q = (x: Record<string, unknown>) => QuestionInput.parse({ type: 'yes_no', text: 'Q', ...x });

  it('assigns ids by position and fills in defaults', () => {
    const { definition, errors } = normalizeDefinition({ kind: 'checklist', sections: [{ title: 'A', questions: [q({}), q({})] }, { title: 'B', questions: [q({ id: 'named' }), q({})] }] });
    expect(errors).toEqual([]);
    expect(definition.scored).toBe(false);
    expect(definition.sections.map((s) => [s.id, s.questions.map((x) => x.id)])).toEqual([
      ['s1', ['q1', 'q2']],
      ['s2', ['named', 'q4']],
    ]);
    expect(definition.sections[0].questions[0]).toEqual({
      id: 'q1',
      type: 'yes_no',
      text: 'Q',
      help: null,
      required: true,
      weight: '1',
      critical: false,
      allowNotApplicable: false,
      correctiveAction: null,
      expected: true,
    });
  });

  it('names each inconsistency by its path', () => {
    const { errors } = normalizeDefinition({
      kind: 'audit',
      scored: false,
      sections: [
        { id: 'x', title: 'A', questions: [q({ id: 'q2' }), q({})] },
        {
          id: 'x',
          title: 'B',
          questions: [
            QuestionInput.parse({ type: 'number', text: 'N', min: '5', max: '1' }),
            QuestionInput.parse({ type: 'single_choice', text: 'C', options: [{ value: 'a', label: 'A', fails: true }, { value: 'a', label: 'B', fails: true }] }),
            QuestionInput.parse({ type: 'text', text: 'T', critical: true, correctiveAction: {} }),
          ],
        },
      ],
    });
    expect(errors.map((e) => e.path)).toEqual([
      'scored',
      'sections[0].questions[1].id',
      'sections[1].id',
      'sections[1].questions[0].max',
      'sections[1].questions[1].options[1].value',
      'sections[1].questions[1].options',
      'sections[1].questions[2].correctiveAction',
      'sections[1].questions[2].critical',
    ]);
  });

  it('a scored form needs something to score; only a scored form has a pass mark', () => {
    expect(normalizeDefinition({ kind: 'inspection', scored: true, sections: [{ title: 'A', questions: [QuestionInput.parse({ type: 'text', text: 'T' })] }] }).errors).toEqual([
      { path: 'sections', message: 'A scored form needs at least one question with a rule that can fail and a weight above 0.' },
    ]);
    expect(normalizeDefinition({ kind: 'checklist', passMark: '80', sections: [{ title: 'A', questions: [q({})] }] }).errors).toEqual([{ path: 'passMark', message: 'Only a scored form has a pass mark.' }]);
  });
});
