/** An answer as the tests' HTTP clients return it: fetch's (test/support/fixtures.ts) or raw HTTP's (scripts/fuzz/raw-http.ts). */
interface Answer {
  status: number;
  headers: Headers | Record<string, string>;
  json: any;
}

const header = (answer: Answer, name: string) =>
  answer.headers instanceof Headers ? answer.headers.get(name) : (answer.headers as Record<string, string>)[name];

/**
 * The answer is an RFC 7807 problem with this status: `application/problem+json`,
 * and its five members (type, title, status, detail, instance). `detail` and
 * `instance` are checked when given, and `errors` (every invalid field) when
 * present. OCTo's `error` and `errorMessage` ride along with `octo` (the
 * gateway's refusals of every route), and only then.
 */
export function expectProblem(answer: Answer, status: number, expected: { detail?: RegExp; instance?: string; octo?: boolean } = {}): void {
  expect({ status: answer.status, contentType: header(answer, 'content-type') }).toEqual({
    status,
    contentType: 'application/problem+json',
  });
  expect(answer.json).toEqual(
    expect.objectContaining({
      type: expect.stringMatching(/\/[a-z-]+$/),
      title: expect.any(String),
      status,
      detail: expected.detail ? expect.stringMatching(expected.detail) : expect.any(String),
      instance: expected.instance ?? expect.any(String),
    }),
  );
  // Invalid fields are listed in `errors`, the first being the one `detail` names.
  const { errors } = answer.json;
  if (errors !== undefined) expect(answer.json.detail).toContain(`'${errors[0].field}' ${errors[0].detail}`);
  const octo = { error: answer.json?.error, errorMessage: answer.json?.errorMessage };
  expect(octo).toEqual(expected.octo ? { error: expect.stringMatching(/^[A-Z_]+$/), errorMessage: answer.json.detail } : {});
}
