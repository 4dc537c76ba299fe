import path from 'node:path';
import { ArnFormat } from 'aws-cdk-lib';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { LogLevel } from '../../shared/core/config';
import type { Route } from '../../shared/api/routes';
import { watchFunctions, watchLatency, type ApiStage } from './alarms';
import { ServiceFunction, ServiceRole } from './service-function';
import { ServiceStack, type ServiceStackProps } from './service-stack';
import { useSigningSecretsKey } from './signing-secrets-key';

/**
 * The group a route's function lives in: the folder of its handler
 * (functions/ota/..., functions/octo/...), one per API face or domain. A new
 * row lands beside the functions of its folder; a new folder is a new group.
 */
export const routeGroupOf = (route: Pick<Route, 'entry'>): string => path.basename(path.dirname(route.entry));

/** The rows of each group, in the route table's order. */
export function routeGroups<R extends Route>(routes: readonly R[]): ReadonlyMap<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const route of routes) groups.set(routeGroupOf(route), [...(groups.get(routeGroupOf(route)) ?? []), route]);
  return groups;
}

/** `{Name}` path parameters are wildcards in an execute-api ARN. */
const arnPath = (routePath: string) => routePath.replace(/\{[^}]+\}/g, '*');

export interface RouteFunctionsProps extends Omit<
  ServiceStackProps,
  'description' | 'parameters' | 'readsStream' | 'signingSecretsKeyArn'
> {
  group: string;
  routes: readonly Route[];
  /** The API the parent stack holds: its methods call these functions. */
  restApiId: string;
  api: ApiStage;
  problemBaseUrl: string;
  logLevel?: LogLevel;
  /** The key webhook signing secrets are encrypted with: the routes that issue them may encrypt with it. */
  signingSecretsKeyArn: string;
}

/**
 * The functions of one group of routes, in a nested stack of their own: per
 * route its function, its log group and API Gateway's permission to invoke
 * it on that route's method only; one role per kind of table access, shared
 * by the group's functions that need exactly it, and one more for those that
 * issue webhook signing secrets (which may also encrypt them, and only
 * that); and the group's alarms, on
 * its routes' p99 latency and its functions' crashes and throttles. The API's
 * resources and methods stay in the parent stack, beside the API.
 */
export class RouteFunctions extends ServiceStack {
  /** By route ID. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly routes: readonly Route[];
  readonly group: string;

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id, {
      table: props.table,
      alarmTopic: props.alarmTopic,
      description: `OTA usage service: the functions of the ${props.group} routes (functions/${props.group}/), their roles and alarms`,
      parameters: { RestApiId: props.restApiId },
      // Only a group with a route that issues secrets is told the key.
      signingSecretsKeyArn: props.routes.some((route) => route.issuesSigningSecrets) ? props.signingSecretsKeyArn : undefined,
    });
    this.group = props.group;
    this.routes = props.routes;
    const restApiId = this.parameter('RestApiId');

    const roles = new Map<string, ServiceRole>();
    const roleFor = (route: Route) => {
      const kind = route.issuesSigningSecrets ? 'SecretIssuer' : route.tableAccess === 'readWrite' ? 'ReadWrite' : 'Read';
      const role =
        roles.get(kind) ??
        new ServiceRole(this, `${kind}Role`, {
          table: this.table,
          tableAccess: route.tableAccess,
          description: route.issuesSigningSecrets
            ? `The ${props.group} routes that issue webhook signing secrets: the table, and encrypting with the secrets' key`
            : `The ${props.group} routes that ${route.tableAccess === 'readWrite' ? 'read and write' : 'only read'} the table`,
        });
      roles.set(kind, role);
      return role;
    };

    const functions = new Map<string, ServiceFunction>();
    for (const route of props.routes) {
      const role = roleFor(route);
      const fn = new ServiceFunction(this, route.id, {
        entry: route.entry,
        table: this.table,
        role,
        problemBaseUrl: props.problemBaseUrl,
        logLevel: props.logLevel,
      });
      if (route.issuesSigningSecrets) useSigningSecretsKey(fn, role, this.signingSecretsKeyArn as string, 'encrypt');
      fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.formatArn({
          service: 'execute-api',
          resource: restApiId,
          resourceName: `${props.api.stage}/${route.method}${arnPath(route.path)}`,
          arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
        }),
      });
      functions.set(route.id, fn);
    }
    this.functions = functions;

    const name = `${props.group}-routes`;
    watchLatency(this, { name, routes: props.routes, api: props.api, topic: this.alarmTopic });
    watchFunctions(this, { name, functions: [...functions], topic: this.alarmTopic });
  }
}
