import { rawRequest, sigV4Authorization } from './raw-http';
import { deep, HOSTILE_JSON_VALUES, HOSTILE_STRINGS, PROTOTYPE_NAMES, type FuzzCase, type random } from './hostile-values';
import { LOCAL_SIGNING_KEY_ARN } from '../../lib/local/kms';

/**
 * The hostile calls of `npm run fuzz` to the local KMS: Encrypt and Decrypt
 * with bodies that are not JSON, too deep, too large, of the wrong types,
 * with hostile encryption contexts and ciphertexts, unsigned or signed by
 * strangers. Each must be answered, a refusal as an AWS error.
 */
export function kmsCases(rng: ReturnType<typeof random>, count: number, host: string): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const call = (
    label: string,
    operation: string,
    body: string | Buffer,
    authorization = sigV4Authorization('local', 'a'.repeat(64), 'kms'),
  ) =>
    cases.push({
      kind: 'kms',
      label: `KMS ${operation} ${label}`,
      bytes: rawRequest(
        'POST',
        '/',
        [
          ['Host', host],
          ['X-Amz-Target', `TrentService.${operation}`],
          ['Content-Type', 'application/x-amz-json-1.1'],
          ['Connection', 'close'],
          ...(authorization ? ([['Authorization', authorization]] as [string, string][]) : []),
        ],
        body,
      ),
    });
  const valid = {
    KeyId: LOCAL_SIGNING_KEY_ARN,
    Plaintext: Buffer.from('whsec_x').toString('base64'),
    EncryptionContext: { OperatorID: 'op' },
  };
  const fixed = [
    '',
    '{',
    'null',
    '[]',
    '"text"',
    deep(10_000),
    JSON.stringify({ ...valid, Plaintext: Buffer.alloc(5000).toString('base64') }),
    JSON.stringify({ ...valid, EncryptionContext: { nested: { deep: 'x' } } }),
    JSON.stringify({ ...valid, EncryptionContext: ['a'] }),
    JSON.stringify({ ...valid, EncryptionContext: JSON.parse(`{"__proto__":"x","constructor":"y"}`) }),
    JSON.stringify({ ...valid, CiphertextBlob: 'AQ==' }),
    JSON.stringify({ ...valid, CiphertextBlob: Buffer.alloc(64, 1).toString('base64') }),
    JSON.stringify({ ...valid, CiphertextBlob: '!!! not base64 !!!' }),
    `{"KeyId":"${'x'.repeat(70_000)}"}`,
  ];
  for (const operation of ['Encrypt', 'Decrypt']) {
    fixed.forEach((body, i) => call(`hostile #${i}`, operation, body));
    call('invalid UTF-8', operation, Buffer.concat([Buffer.from('{"KeyId":"'), Buffer.from([0xff]), Buffer.from('"}')]));
    call('unsigned', operation, JSON.stringify(valid), '');
    call('signed by a stranger', operation, JSON.stringify(valid), sigV4Authorization('AKIAEXAMPLE', 'a'.repeat(64), 'kms'));
  }
  call('unknown operation', 'ScheduleKeyDeletion', JSON.stringify({ KeyId: LOCAL_SIGNING_KEY_ARN }));
  for (let i = 0; i < count; i += 1) {
    const fields: Record<string, unknown> = { ...valid, CiphertextBlob: valid.Plaintext };
    for (let m = 1 + Math.floor(rng.next() * 3); m > 0; m -= 1)
      fields[rng.pick(['KeyId', 'Plaintext', 'CiphertextBlob', 'EncryptionContext', 'GrantTokens', ...PROTOTYPE_NAMES])] = rng.pick([
        ...HOSTILE_JSON_VALUES,
        ...HOSTILE_STRINGS.slice(0, 12),
      ]);
    call(`random #${i}`, rng.pick(['Encrypt', 'Decrypt']), JSON.stringify(fields));
  }
  return cases;
}
