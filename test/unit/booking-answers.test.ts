import { checkAnswers } from '../../shared/booking/answers';
import type { Question } from '../../shared/catalog/schemas';

const questions: Question[] = [
  { QuestionID: 'q_text', Text: 'Name', Type: 'TEXT', Required: true },
  { QuestionID: 'q_yes', Text: 'Can you swim?', Type: 'YES_NO', Required: true },
  { QuestionID: 'q_size', Text: 'Size', Type: 'SINGLE_CHOICE', Required: false, Options: ['S', 'M', 'L'] },
  { QuestionID: 'q_born', Text: 'Date of birth', Type: 'DATE', Required: false },
  { QuestionID: 'q_file', Text: 'Waiver', Type: 'FILE_UPLOAD', Required: true },
];

const complete = [
  { QuestionID: 'q_text', Value: 'Ana' },
  { QuestionID: 'q_yes', Value: 'YES' },
  { QuestionID: 'q_file', Value: 'https://cdn.partner.example/u/1.pdf' },
];

describe('waiver answers', () => {
  it('are COMPLETE when every required question is answered, and optional ones may be added', () => {
    expect(checkAnswers(questions, complete)).toBe('COMPLETE');
    expect(
      checkAnswers(questions, [...complete, { QuestionID: 'q_size', Value: 'M' }, { QuestionID: 'q_born', Value: '1990-02-28' }]),
    ).toBe('COMPLETE');
  });

  it('leave the waiver PENDING when no answers are sent, unless nothing is required', () => {
    expect(checkAnswers(questions, undefined)).toBe('PENDING');
    expect(
      checkAnswers(
        questions.filter((q) => !q.Required),
        undefined,
      ),
    ).toBe('COMPLETE');
    expect(checkAnswers([], undefined)).toBe('COMPLETE');
    expect(checkAnswers([], [])).toBe('COMPLETE');
  });

  it.each([
    ['q_yes', 'yes', /'YES' or 'NO'/],
    ['q_size', 'XL', /one of 'S', 'M', 'L'/],
    ['q_born', '1990-02-30', /YYYY-MM-DD/],
    ['q_born', '28/02/1990', /YYYY-MM-DD/],
    ['q_file', 'ftp://files.example/1.pdf', /https URL/],
    ['q_file', 'not a url', /https URL/],
    ['q_text', ' ', /must not be blank/],
  ])('refuse %s = %j', (questionId, value, detail) => {
    const answers = complete.filter((answer) => answer.QuestionID !== questionId).concat({ QuestionID: questionId, Value: value });
    expect(() => checkAnswers(questions, answers)).toThrow(detail);
  });

  it('name every missing required question', () => {
    expect(() => checkAnswers(questions, [{ QuestionID: 'q_yes', Value: 'NO' }])).toThrow(/lacks required question\(s\): q_text, q_file/);
  });
});
