import { canonicalJson, checkIdempotencyKey, hashIdempotencyKey, isLive, requestHash } from '../../shared/core/idempotency';
import { ValidationError } from '../../shared/core/errors';

describe('idempotency', () => {
  it('hashes the same request the same way whatever the order of its fields', () => {
    const a = {
      ActivityID: 's_x',
      Customer: { FirstName: 'A', Email: 'a@b.co' },
      Participants: 2,
      Answers: [{ QuestionID: 'q', Value: 'v' }],
    };
    const b = {
      Answers: [{ Value: 'v', QuestionID: 'q' }],
      Participants: 2,
      Customer: { Email: 'a@b.co', FirstName: 'A' },
      ActivityID: 's_x',
    };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(requestHash(a)).toBe(requestHash(b));
    expect(canonicalJson(a)).toBe(
      '{"ActivityID":"s_x","Answers":[{"QuestionID":"q","Value":"v"}],"Customer":{"Email":"a@b.co","FirstName":"A"},"Participants":2}',
    );
  });

  it('tells different requests apart, including the order of array items', () => {
    const base = {
      Participants: 2,
      Answers: [
        { QuestionID: 'q1', Value: 'a' },
        { QuestionID: 'q2', Value: 'b' },
      ],
    };
    expect(requestHash(base)).not.toBe(requestHash({ ...base, Participants: 3 }));
    expect(requestHash(base)).not.toBe(requestHash({ ...base, Answers: [...base.Answers].reverse() }));
    expect(requestHash({ Value: '1' })).not.toBe(requestHash({ Value: 1 }));
  });

  it('accepts visible ASCII keys of 1 to 255 characters', () => {
    for (const key of ['a', '123e4567-e89b-12d3-a456-426614174000', 'AbC+/=', 'x'.repeat(255)])
      expect(() => checkIdempotencyKey(key)).not.toThrow();
    for (const key of ['', 'x'.repeat(256), 'has space', 'tab\t', 'ünï']) expect(() => checkIdempotencyKey(key)).toThrow(ValidationError);
  });

  it('addresses records by a fixed-size hash of the key', () => {
    expect(hashIdempotencyKey('k')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashIdempotencyKey('k')).not.toBe(hashIdempotencyKey('K'));
  });

  it('treats a record as live until its expiry', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const seconds = now.getTime() / 1000;
    expect(isLive({ ExpiresAt: seconds + 1 }, now)).toBe(true);
    expect(isLive({ ExpiresAt: seconds }, now)).toBe(false);
  });
});
