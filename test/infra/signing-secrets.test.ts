import { Stack } from 'aws-cdk-lib';
import { OtaUsageStack } from '../../lib/aws/stack';
import { routes } from '../../shared/api/routes';
import { StackTemplates } from '../support/stack-templates';
import { testApp } from '../support/test-app';

const app = testApp();
const stack = new OtaUsageStack(app, 'Test');
const all = new StackTemplates(stack);
const keyId = all.logicalId(stack.signingSecretsKey);
const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };

/** Every statement of every IAM policy in the stack and its nested stacks that names a KMS action, with the roles it is attached to. */
interface KmsGrant {
  home: Stack;
  roles: string[];
  actions: string[];
  resource: unknown;
}

const kmsGrants = (): KmsGrant[] =>
  all.resources('AWS::IAM::Policy').flatMap(({ stack: home, resource }) =>
    resource.Properties.PolicyDocument.Statement.filter((statement: { Action: string | string[] }) =>
      [statement.Action].flat().some((action) => action.startsWith('kms:') || action === '*'),
    ).map((statement: { Action: string | string[]; Resource: unknown }) => ({
      home,
      roles: resource.Properties.Roles.map((role: { Ref: string }) => role.Ref) as string[],
      actions: [statement.Action].flat(),
      resource: statement.Resource,
    })),
  );

const roleOf = (fn: { role?: Parameters<StackTemplates['logicalId']>[0] }) => ({ home: Stack.of(fn.role!), role: all.logicalId(fn.role!) });

describe('the webhook signing secrets key', () => {
  test('is customer-managed, rotated by KMS every year, and kept when the stack is deleted', () => {
    const key = all.resourceOf(stack.signingSecretsKey);
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
    // The default key policy: the account's IAM policies decide who uses it, and no principal is named in it.
    const principals = key.Properties.KeyPolicy.Statement.map((statement: { Principal: unknown }) => JSON.stringify(statement.Principal));
    expect(principals.every((principal: string) => principal.includes(':root'))).toBe(true);
  });

  test('only the webhook sender may decrypt with it; the routes that issue secrets may encrypt, and nothing more', () => {
    const issuers: string[] = routes.filter((route) => route.issuesSigningSecrets).map((route) => route.id);
    expect(issuers.sort()).toEqual(['put-usage-webhook', 'put-webhook']);
    const grants = kmsGrants();
    const decrypting = grants.filter((grant) => grant.actions.some((action) => action !== 'kms:Encrypt'));
    const sender = roleOf(stack.background.sender);
    expect(decrypting.map(({ home, roles, actions }) => ({ home, roles, actions }))).toEqual([
      { home: sender.home, roles: [sender.role], actions: ['kms:Decrypt'] },
    ]);
    const encrypting = grants.filter((grant) => grant.actions.includes('kms:Encrypt'));
    const issuerRoles = issuers.map((id) => roleOf(stack.routeFunctions.get(id)!));
    expect(encrypting.map(({ home, roles }) => roles.map((role) => ({ home, role }))).flat()).toEqual(expect.arrayContaining(issuerRoles));
    expect(encrypting).toHaveLength(issuers.length);
    for (const grant of grants) {
      expect(grant.resource).toEqual(all.referenceIn(grant.home, 'SigningSecretsKeyArn', keyArn));
    }
    // The issuers' roles are theirs alone: no other function of their groups may encrypt.
    for (const [id, fn] of stack.routeFunctions) {
      expect({ id, encrypts: all.actionsOf(fn).includes('kms:Encrypt') }).toEqual({ id, encrypts: issuers.includes(id) });
    }
  });

  test('is named to the sender and the routes that issue secrets, and to no other function', () => {
    const told = all
      .resources('AWS::Lambda::Function')
      .filter(({ resource }) => resource.Properties.Environment?.Variables?.SIGNING_SECRETS_KEY_ARN !== undefined);
    const expected = [stack.background.sender, stack.routeFunctions.get('put-webhook')!, stack.routeFunctions.get('put-usage-webhook')!];
    expect(told.map(({ stack: home, id }) => `${home.node.id}/${id}`).sort()).toEqual(
      expected.map((fn) => `${Stack.of(fn).node.id}/${all.logicalId(fn)}`).sort(),
    );
    for (const { stack: home, resource } of told) {
      expect(resource.Properties.Environment.Variables.SIGNING_SECRETS_KEY_ARN).toEqual(
        all.referenceIn(home, 'SigningSecretsKeyArn', keyArn),
      );
    }
  });
});
