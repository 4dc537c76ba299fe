import { RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import type { ServiceFunction, ServiceRole } from './service-function';

/**
 * The customer-managed KMS key webhook signing secrets are encrypted with
 * (shared/webhooks/signing-secrets.ts). KMS rotates its key material every
 * year and keeps the old material, so every secret encrypted before still
 * decrypts. It is kept when the stack is deleted, as the table is: the
 * secrets kept there cannot be read without it.
 */
export function signingSecretsKey(scope: Construct): Key {
  return new Key(scope, 'SigningSecretsKey', {
    description: 'OTA usage service: encrypts the webhook signing secrets kept in the table; only the webhook sender may decrypt',
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
}

/**
 * What a function may do with the key, on its role: a function that issues
 * secrets may only encrypt (not kms:ReEncrypt*, which would let it move a
 * secret under a key it can decrypt with, nor GenerateDataKey, which it does
 * not need); the webhook sender alone may decrypt. Each is told the key.
 */
export function useSigningSecretsKey(fn: ServiceFunction, role: ServiceRole, keyArn: string, use: 'encrypt' | 'decrypt'): void {
  role.addToPolicy(new PolicyStatement({ actions: [use === 'encrypt' ? 'kms:Encrypt' : 'kms:Decrypt'], resources: [keyArn] }));
  fn.addEnvironment('SIGNING_SECRETS_KEY_ARN', keyArn);
}
