import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { LOCAL_CREDENTIALS } from '../../lib/local/defaults';
import type { LocalHost } from '../../lib/local/host';
import { createLocalKms, LOCAL_SIGNING_KEY_ARN, LOCAL_SIGNING_KEY_ID } from '../../lib/local/kms';
import { startTestHost } from '../support/fixtures';

/**
 * The local host's KMS stand-in, called by the AWS SDK's KMS client as the
 * service calls KMS: real encryption (AES-256-GCM) with the encryption
 * context bound in, KMS's errors for a context, a ciphertext or a key that
 * does not match, only signed calls, and a key kept in its file across
 * restarts (npm start's data) or made for one run.
 */
const directory = mkdtempSync(path.join(tmpdir(), 'local-kms-'));
const keyFile = path.join(directory, 'local-kms-key');
let host: LocalHost;

beforeAll(async () => {
  host = await startTestHost({ kms: { keyFile } });
});
afterAll(() => host.close());

const kmsOf = (url: string, credentials = LOCAL_CREDENTIALS) => new KMSClient({ region: 'local', endpoint: url, credentials });
const context = { OperatorID: 'op_kms', Endpoint: 'partner-key:key_1' };

async function encrypt(url: string, plaintext: string, encryptionContext: Record<string, string> = context): Promise<Uint8Array> {
  const kms = kmsOf(url);
  try {
    const { CiphertextBlob, KeyId } = await kms.send(
      new EncryptCommand({ KeyId: LOCAL_SIGNING_KEY_ARN, Plaintext: Buffer.from(plaintext), EncryptionContext: encryptionContext }),
    );
    expect(KeyId).toBe(LOCAL_SIGNING_KEY_ARN);
    return CiphertextBlob!;
  } finally {
    kms.destroy();
  }
}

/** What Decrypt answers: the plaintext, or the error KMS names. */
async function decrypt(
  url: string,
  ciphertext: Uint8Array,
  encryptionContext: Record<string, string> = context,
  keyId = LOCAL_SIGNING_KEY_ARN,
) {
  const kms = kmsOf(url);
  try {
    const { Plaintext } = await kms.send(
      new DecryptCommand({ KeyId: keyId, CiphertextBlob: ciphertext, EncryptionContext: encryptionContext }),
    );
    return Buffer.from(Plaintext!).toString('utf8');
  } catch (error) {
    return (error as Error).name;
  } finally {
    kms.destroy();
  }
}

describe('the local KMS', () => {
  it('encrypts for real: the ciphertext holds nothing of the plaintext, differs each time, and decrypts only under its own context', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3jHnP8ZnCmk=';
    const [first, second] = [await encrypt(host.url, secret), await encrypt(host.url, secret)];
    expect(Buffer.from(first).toString('latin1')).not.toContain('MfKQ9r8G');
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(await decrypt(host.url, first)).toBe(secret);
    // The context's pairs in another order are the same context, as KMS has it.
    expect(await decrypt(host.url, second, { Endpoint: context.Endpoint, OperatorID: context.OperatorID })).toBe(secret);
    expect(await decrypt(host.url, first, { ...context, Endpoint: 'partner-key:key_2' })).toBe('InvalidCiphertextException');
    expect(await decrypt(host.url, first, { OperatorID: context.OperatorID })).toBe('InvalidCiphertextException');
    expect(await decrypt(host.url, first, {})).toBe('InvalidCiphertextException');
    const tampered = Buffer.from(first);
    tampered[tampered.length - 1] ^= 1;
    expect(await decrypt(host.url, tampered)).toBe('InvalidCiphertextException');
    expect(await decrypt(host.url, first, context, LOCAL_SIGNING_KEY_ID)).toBe(secret);
    expect(await decrypt(host.url, first, context, 'arn:aws:kms:local:000000000000:key/another')).toBe('NotFoundException');
  });

  it('takes only calls signed by the local credentials, and refuses what KMS refuses', async () => {
    const stranger = kmsOf(host.url, { accessKeyId: 'someone', secretAccessKey: 'else' });
    await expect(stranger.send(new EncryptCommand({ KeyId: LOCAL_SIGNING_KEY_ARN, Plaintext: Buffer.from('x') }))).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
    });
    stranger.destroy();
    const unsigned = await fetch(host.url, {
      method: 'POST',
      headers: { 'X-Amz-Target': 'TrentService.Encrypt', 'Content-Type': 'application/x-amz-json-1.1' },
      body: '{}',
    });
    expect({ status: unsigned.status, body: await unsigned.json() }).toEqual({
      status: 400,
      body: { __type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' },
    });
    const kms = kmsOf(host.url);
    await expect(kms.send(new EncryptCommand({ KeyId: LOCAL_SIGNING_KEY_ARN, Plaintext: Buffer.alloc(4097) }))).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Plaintext must be at most 4096 bytes',
    });
    await expect(kms.send(new EncryptCommand({ KeyId: 'alias/unknown', Plaintext: Buffer.from('x') }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
    kms.destroy();
  });

  it('keeps its key in its file, readable by its owner only: a host started again on it decrypts what the first encrypted; another key does not', async () => {
    const ciphertext = await encrypt(host.url, 'kept across restarts');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8'), 'base64')).toHaveLength(32);
    const again = await startTestHost({ kms: { keyFile } });
    const ofThisRun = await startTestHost();
    try {
      expect(await decrypt(again.url, ciphertext)).toBe('kept across restarts');
      expect(await decrypt(ofThisRun.url, ciphertext)).toBe('InvalidCiphertextException');
    } finally {
      await again.close();
      await ofThisRun.close();
    }
  });

  it('refuses to start on a key file that holds no 256-bit key, rather than encrypt with another', () => {
    const broken = path.join(directory, 'broken-key');
    writeFileSync(broken, 'not a key');
    expect(() => createLocalKms({ keyFile: broken })).toThrow(`${broken} does not hold a 256-bit key in base64`);
  });
});
