import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { FUNCTION_TIMEOUT_SECONDS } from '../../shared/api/gateway';
import { bundlingOptions } from '../../lib/aws/bundling';
import { routeGroupOf } from '../../lib/aws/route-functions';
import type { ServiceRole } from '../../lib/aws/service-function';
import { OtaUsageStack } from '../../lib/aws/stack';
import { ANY_KEY, PROJECT_ROOT, routes, type Route } from '../../shared/api/routes';
import { backgroundFunctions } from '../../shared/api/background';
import { DEFAULT_PROBLEM_BASE_URL } from '../../shared/core/config';
import { StackTemplates } from '../support/stack-templates';
import { testApp } from '../support/test-app';

const app = testApp();
const stack = new OtaUsageStack(app, 'Test');
const all = new StackTemplates(stack);
const tableId = all.logicalId(stack.table);

describe('functions', () => {
  const serviceFunctions = () => all.resources('AWS::Lambda::Function', all.serviceStacks);

  test('one function per route, plus the authorizer, the platform-event recorder and every function of the background work', () => {
    expect(serviceFunctions()).toHaveLength(routes.length + 2 + backgroundFunctions.length);
    expect(stack.routeFunctions.size).toBe(routes.length);
  });

  test('every function runs nodejs24.x on arm64 with the shared settings and the table name; those behind the API with its timeout', () => {
    for (const fn of [...stack.routeFunctions.values(), stack.authorizerFunction]) {
      expect(all.resourceOf(fn).Properties.Timeout).toBe(FUNCTION_TIMEOUT_SECONDS);
    }
    for (const { stack: home, resource } of serviceFunctions()) {
      expect(resource.Properties).toMatchObject({
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Handler: 'index.handler',
        Environment: {
          Variables: expect.objectContaining({
            TABLE_NAME: all.referenceIn(home, 'TableName', { Ref: tableId }),
            PROBLEM_BASE_URL: DEFAULT_PROBLEM_BASE_URL,
          }),
        },
      });
    }
  });

  test('the tests, the local host and Lambda run one Node major, the one the bundles target', () => {
    const testedMajor = process.versions.node.split('.')[0];
    const runtimes = serviceFunctions().map(({ resource }) => resource.Properties.Runtime);
    expect(new Set(runtimes)).toEqual(new Set([`nodejs${testedMajor}.x`]));
    expect(bundlingOptions.target).toBe(`node${testedMajor}`);
  });

  test('each function is granted the table access its row declares, and no more, on the table and its indexes only', () => {
    for (const route of routes) {
      const fn = stack.routeFunctions.get(route.id)!;
      const actions = all.actionsOf(fn);
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      if (route.tableAccess === 'readWrite') expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem']));
      else expect(actions).not.toContain('dynamodb:PutItem');
      const tableStatements = all
        .resources('AWS::IAM::Policy', [Stack.of(fn)])
        .filter(({ resource }) => resource.Properties.Roles.some((role: { Ref?: string }) => role.Ref === all.logicalId(fn.role!)))
        .flatMap(({ resource }) => resource.Properties.PolicyDocument.Statement)
        .filter((statement: { Action: string | string[] }) => [statement.Action].flat().some((action) => action.startsWith('dynamodb:')));
      expect(tableStatements.length).toBeGreaterThan(0);
      for (const { Resource: granted } of tableStatements) {
        const [table, indexes] = granted;
        expect(granted).toHaveLength(2);
        expect(JSON.stringify(table)).toContain(':table/",{"Ref":"TableName"}]');
        expect(indexes).toEqual({ 'Fn::Join': ['', [...table['Fn::Join'][1], '/index/*']] });
      }
      expect(all.parameterValue(Stack.of(fn), 'TableName')).toEqual({ Ref: tableId });
    }
    const authorizerActions = all.actionsOf(stack.authorizerFunction);
    expect(authorizerActions).toContain('dynamodb:Query');
    expect(authorizerActions).not.toContain('dynamodb:PutItem');
  });

  test('functions share a role only with the functions of their group that need exactly the same access', () => {
    const byRole = new Map<ServiceRole, string[]>();
    for (const route of routes) {
      const role = stack.routeFunctions.get(route.id)!.role as ServiceRole;
      byRole.set(role, [...(byRole.get(role) ?? []), route.id]);
    }
    for (const [role, routeIds] of byRole) {
      const rows = routes.filter((route) => routeIds.includes(route.id));
      expect(new Set(rows.map((route) => route.tableAccess))).toEqual(new Set([role.tableAccess]));
      expect(new Set(rows.map((route) => route.issuesSigningSecrets ?? false)).size).toBe(1);
      expect(new Set(rows.map(routeGroupOf)).size).toBe(1);
    }
    // One role per group and kind of access, not one per function.
    const groupsAndAccess = new Set(
      routes.map((route) => `${routeGroupOf(route)} ${route.tableAccess} ${route.issuesSigningSecrets ?? false}`),
    );
    expect(byRole.size).toBe(groupsAndAccess.size);
  });
});

describe('where a new row lands', () => {
  test('in the nested stack of its handler’s folder, a new folder making a new one, with its method beside the API: no change to the stack', () => {
    const rows: Route[] = [
      ...routes,
      {
        id: 'list-changes',
        method: 'GET',
        path: '/api/v2/ota/marketplace/availability/summary',
        entry: 'functions/ota/list-products.ts',
        scope: 'ota',
        tableAccess: 'read',
      },
      {
        id: 'erase-operator',
        method: 'POST',
        path: '/api/v2/operator/erasure',
        entry: 'functions/events/record-platform-event.ts',
        scope: ANY_KEY,
        tableAccess: 'readWrite',
      },
    ];
    const grown = new OtaUsageStack(testApp(), 'Grown', { routes: rows });
    const groups = new Map(grown.routeStacks.map((routeStack) => [routeStack.node.id, [...routeStack.functions.keys()]]));
    expect(groups.get('OtaRoutes')).toContain('list-changes');
    expect(groups.get('EventsRoutes')).toEqual(['erase-operator']);
    expect([...groups.values()].flat().sort()).toEqual(rows.map((route) => route.id).sort());
    const grownTemplates = new StackTemplates(grown);
    const grownMethods = grownTemplates.resources('AWS::ApiGateway::Method', [grown]).map(({ resource }) => resource.Properties);
    expect(grownMethods.filter((method) => method.AuthorizationType === 'CUSTOM')).toHaveLength(rows.length);
    const erasure = grown.routeFunctions.get('erase-operator')!;
    expect(grownTemplates.actionsOf(erasure)).toContain('dynamodb:PutItem');
  });
});

describe('who may write the table', () => {
  const docs = (file: string) => readFileSync(path.join(PROJECT_ROOT, 'docs', file), 'utf8');
  /** The rows of the first Markdown table after a heading, as cells. */
  const tableAfter = (markdown: string, heading: string) => {
    const lines = markdown.slice(markdown.indexOf(heading)).split('\n');
    const start = lines.findIndex((line) => line.startsWith('|'));
    const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
    return lines.slice(start + 2, end).map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  };
  const functionsByName = new Map<string, { role?: IConstruct }>([
    ...stack.routeFunctions,
    ['authorizer', stack.authorizerFunction],
    ...stack.background.functions,
    ['record-platform-event', stack.platformEvents.function],
  ]);
  const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

  test('are exactly the functions docs/deploying.md lists, each with item types of the data model', () => {
    expect(functionsByName.size).toBe(all.resources('AWS::Lambda::Function', all.serviceStacks).length);
    const writers = [...functionsByName]
      .filter(([, fn]) => all.actionsOf(fn).some((action) => WRITES.includes(action)))
      .map(([name]) => name);
    const listed = tableAfter(docs('deploying.md'), '## Who may write the table');
    expect(listed.flatMap(([names]) => names.split(', ').map((name) => name.replace(/`/g, ''))).sort()).toEqual(writers.sort());
    const entities = new Set(tableAfter(docs('architecture.md'), '## Data model').map(([entity]) => entity));
    for (const [, itemTypes] of listed) for (const itemType of itemTypes.split(', ')) expect(entities).toContain(itemType);
  });
});
