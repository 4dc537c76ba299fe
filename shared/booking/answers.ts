import type { Question } from '../catalog/schemas';
import { ValidationError } from '../core/errors';
import type { Answer, WaiverStatus } from './schemas';

/**
 * Waiver answers. Every Value is a string:
 * TEXT any non-empty text; YES_NO `YES` or `NO`; SINGLE_CHOICE one of the
 * question's Options; DATE YYYY-MM-DD; FILE_UPLOAD the https URL at which the
 * partner holds the uploaded file.
 * A booking without `Answers` is accepted with WaiverStatus PENDING when the
 * activity has required questions. A booking with `Answers` (even an empty
 * list) must answer every required question.
 */

const isCalendarDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

function valueProblem(question: Question, value: string): string | undefined {
  switch (question.Type) {
    case 'TEXT':
      return value.trim() ? undefined : 'must not be blank';
    case 'YES_NO':
      return value === 'YES' || value === 'NO' ? undefined : "must be 'YES' or 'NO'";
    case 'SINGLE_CHOICE':
      return question.Options?.includes(value) ? undefined : `must be one of ${(question.Options ?? []).map((o) => `'${o}'`).join(', ')}`;
    case 'DATE':
      return isCalendarDate(value) ? undefined : 'must be a date in YYYY-MM-DD format';
    case 'FILE_UPLOAD':
      return isHttpsUrl(value) ? undefined : 'must be the https URL of the uploaded file';
  }
}

/** Checks the answers against the activity's questions and tells the waiver status they give the booking. */
export function checkAnswers(questions: Question[], answers: Answer[] | undefined): WaiverStatus {
  const required = questions.filter((question) => question.Required);
  if (answers === undefined) return required.length ? 'PENDING' : 'COMPLETE';
  const byId = new Map(questions.map((question) => [question.QuestionID, question]));
  const seen = new Set<string>();
  answers.forEach((answer, index) => {
    const question = byId.get(answer.QuestionID);
    const field = `Answers[${index}].QuestionID`;
    if (!question) throw new ValidationError(`'${answer.QuestionID}' is not a question of this activity`, { field });
    if (seen.has(answer.QuestionID)) throw new ValidationError(`'${answer.QuestionID}' is answered twice`, { field });
    seen.add(answer.QuestionID);
    const problem = valueProblem(question, answer.Value);
    if (problem)
      throw new ValidationError(`(question '${answer.QuestionID}', ${question.Type}) ${problem}`, { field: `Answers[${index}].Value` });
  });
  const missing = required.filter((question) => !seen.has(question.QuestionID)).map((question) => question.QuestionID);
  if (missing.length) {
    throw new ValidationError(`lacks required question(s): ${missing.join(', ')}`, {
      field: 'Answers',
      extensions: { missingQuestions: missing },
    });
  }
  return 'COMPLETE';
}
