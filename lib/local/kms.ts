import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AwsApiError, awsJsonEndpoint, type LocalAwsStandIn } from './aws-stand-in';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';

/**
 * Plays AWS KMS on one machine, for the key that encrypts webhook signing
 * secrets (shared/webhooks/signing-secrets.ts): answers the SDK's Encrypt and
 * Decrypt (KMS's JSON 1.1 protocol) on the local host's port, signed by the
 * local credentials, so the service's code runs as on AWS. The encryption is
 * real: AES-256-GCM under one key, the request's encryption context bound
 * in as additional authenticated data, so a ciphertext decrypts only with
 * the very context it was encrypted under, as KMS's does. The key is kept in
 * a file beside the table's data (what `npm start` encrypted stays readable
 * after a restart), or for this run only.
 */
export const LOCAL_SIGNING_KEY_ID = '5e3c7a1f-0c1d-4e8b-9a52-6b0f2d4c8e71';
export const LOCAL_SIGNING_KEY_ARN = `arn:aws:kms:${LOCAL_REGION}:${LOCAL_ACCOUNT}:key/${LOCAL_SIGNING_KEY_ID}`;

export interface LocalKmsOptions {
  /** The file the key is kept in, made on first use; without it, a key for this run only. */
  keyFile?: string;
}

/** KMS takes at most 4 KB of plaintext. */
const MAX_PLAINTEXT_BYTES = 4096;
const ALGORITHM = 'SYMMETRIC_DEFAULT';
/** A ciphertext: its format's version, the nonce, the authentication tag, then the encrypted bytes. */
const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The key in `file`, made there (readable by its owner only) when absent; two processes starting at once read the same one. */
function keyOf(file: string | undefined): Buffer {
  if (!file) return randomBytes(32);
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32)
    throw new Error(`${file} does not hold a 256-bit key in base64; the secrets encrypted with it cannot be read without it`);
  return key;
}

/** The encryption context as authenticated data: its pairs in order of their names, so the order they were sent in does not matter. */
function contextBytes(context: unknown = {}): Buffer {
  const entries = Object.entries((context ?? {}) as Record<string, unknown>);
  if (typeof context !== 'object' || Array.isArray(context) || entries.some(([, value]) => typeof value !== 'string')) {
    throw new AwsApiError('ValidationException', 'EncryptionContext must be a map of strings to strings');
  }
  return Buffer.from(JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), 'utf8');
}

const requireKey = (keyId: unknown) => {
  if (keyId !== undefined && keyId !== LOCAL_SIGNING_KEY_ID && keyId !== LOCAL_SIGNING_KEY_ARN) {
    throw new AwsApiError('NotFoundException', `Key '${String(keyId).slice(0, 200)}' does not exist`);
  }
};

const blob = (value: unknown, name: string): Buffer => {
  if (typeof value !== 'string' || !value) throw new AwsApiError('ValidationException', `${name} is required`);
  return Buffer.from(value, 'base64');
};

export function createLocalKms(options: LocalKmsOptions = {}): Pick<LocalAwsStandIn<never>, 'accepts' | 'serve'> {
  const key = keyOf(options.keyFile);

  function encrypt(input: Record<string, unknown>) {
    if (input.KeyId === undefined) throw new AwsApiError('ValidationException', 'KeyId is required');
    requireKey(input.KeyId);
    const plaintext = blob(input.Plaintext, 'Plaintext');
    if (plaintext.length > MAX_PLAINTEXT_BYTES) {
      throw new AwsApiError('ValidationException', `Plaintext must be at most ${MAX_PLAINTEXT_BYTES} bytes`);
    }
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(contextBytes(input.EncryptionContext));
    const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const ciphertext = Buffer.concat([Buffer.of(VERSION), nonce, cipher.getAuthTag(), encrypted]);
    return { CiphertextBlob: ciphertext.toString('base64'), KeyId: LOCAL_SIGNING_KEY_ARN, EncryptionAlgorithm: ALGORITHM };
  }

  function decrypt(input: Record<string, unknown>) {
    requireKey(input.KeyId);
    const ciphertext = blob(input.CiphertextBlob, 'CiphertextBlob');
    const aad = contextBytes(input.EncryptionContext);
    try {
      if (ciphertext[0] !== VERSION) throw new Error('not a ciphertext of this key');
      const nonce = ciphertext.subarray(1, 1 + NONCE_BYTES);
      const tag = ciphertext.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, nonce).setAAD(aad).setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(ciphertext.subarray(1 + NONCE_BYTES + TAG_BYTES)), decipher.final()]);
      return { KeyId: LOCAL_SIGNING_KEY_ARN, Plaintext: plaintext.toString('base64'), EncryptionAlgorithm: ALGORITHM };
    } catch {
      // KMS says no more: not which of the key, the ciphertext or the context did not match.
      throw new AwsApiError('InvalidCiphertextException', '');
    }
  }

  return awsJsonEndpoint({
    signingName: 'kms',
    targetPrefix: 'TrentService.',
    jsonVersion: '1.1',
    maxRequestBytes: 64 * 1024,
    tooLarge: { type: 'ValidationException', message: 'The request is over the size KMS takes.' },
    name: 'KMS',
    internalErrorType: 'KMSInternalException',
    async operate(operation, input) {
      const read = async () => ((await input()) ?? {}) as Record<string, unknown>;
      if (operation === 'Encrypt') return encrypt(await read());
      if (operation === 'Decrypt') return decrypt(await read());
      throw new AwsApiError('UnsupportedOperationException', `The local KMS does not support ${operation.slice(0, 100)}`);
    },
  });
}
