import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { RouteFunctions } from '../lib/aws/route-functions';
import { OtaUsageStack } from '../lib/aws/stack';
import { routes as routeTable, type Route } from '../shared/api/routes';
import { DEFAULT_PROBLEM_BASE_URL } from '../shared/core/config';
import { openApiDocument } from '../shared/http/openapi';
import { octoDocument } from '../shared/octo/openapi';

/**
 * `npm run stack-size`: the size of every template the stack synthesizes
 * (the top-level one and each nested stack's) against CloudFormation's limits
 * and this service's budget, today and with the route table doubled, and how
 * many routes the layout holds before a template reaches the budget.
 * test/infra/stack-size.test.ts holds the stack to the same figures.
 */

const KB = 1024;

/** CloudFormation's quotas per template: a deploy past any of them fails. */
export const CLOUDFORMATION_LIMITS = { resources: 500, bytes: 1024 * KB, outputs: 200, parameters: 200 } as const;
/** What any template of this service may reach: room under every limit, so that growth is noticed here, never at `cdk deploy`. */
export const STACK_BUDGET = { resources: 400, bytes: 800 * KB, outputs: 160, parameters: 60 } as const;
/** API Gateway's default quota of resources (path parts) per REST API; adjustable on request. */
export const API_GATEWAY_RESOURCES_PER_API = 300;
/** What the API may reach of it: room under the quota, as the templates' budget leaves under CloudFormation's. */
export const API_RESOURCES_BUDGET = 240;

export interface TemplateSize {
  /** The stack's construct path: `OtaUsageService`, `OtaUsageService/OtaRoutes`. */
  name: string;
  /** How many route rows the template grows with: all of them for the top-level stack, a group's for its nested stack, none for the rest. */
  routes: number;
  resources: number;
  /** Of the template file as synthesized, which is what CloudFormation is given. */
  bytes: number;
  outputs: number;
  parameters: number;
}

export interface Measurement {
  templates: TemplateSize[];
  /** AWS::ApiGateway::Resource in all templates: the API's path parts. */
  apiResources: number;
  /** AWS::ApiGateway::Method in all templates: one per route, and the public document's. */
  apiMethods: number;
  /** AWS::IAM::Role in all templates. */
  roles: number;
}

/**
 * Synthesizes the stack with these routes and measures each template. Without
 * bundling (the code is not measured, the templates are), but with the
 * metadata `cdk synth` writes (each resource's path, each asset's) and without
 * an account and region, whose references are longer than their names: each
 * template weighs a little more than the one `cdk synth` writes.
 */
export function measure(routes: readonly Route[]): Measurement {
  // A directory of its own, removed once read: the assets staged beside the templates weigh about 24 MB.
  const outdir = mkdtempSync(path.join(tmpdir(), 'stack-size-'));
  try {
    const app = new App({
      outdir,
      context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-path-metadata': true, 'aws:cdk:enable-asset-metadata': true },
      analyticsReporting: true,
    });
    const root = new OtaUsageStack(app, 'OtaUsageService', { routes });
    app.synth();
    const stacks: Stack[] = [
      root,
      ...root.node.findAll().filter((construct): construct is NestedStack => construct instanceof NestedStack),
    ];
    const counted = { apiResources: 0, apiMethods: 0, roles: 0 };
    const templates = stacks.map((stack): TemplateSize => {
      const file = path.join(outdir, stack.templateFile);
      const template = JSON.parse(readFileSync(file, 'utf8'));
      const resources = Object.values<{ Type: string }>(template.Resources ?? {});
      const count = (type: string) => resources.filter((resource) => resource.Type === type).length;
      counted.apiResources += count('AWS::ApiGateway::Resource');
      counted.apiMethods += count('AWS::ApiGateway::Method');
      counted.roles += count('AWS::IAM::Role');
      return {
        name: stack.node.path,
        routes: stack === root ? routes.length : stack instanceof RouteFunctions ? stack.routes.length : 0,
        resources: resources.length,
        bytes: statSync(file).size,
        outputs: Object.keys(template.Outputs ?? {}).length,
        parameters: Object.keys(template.Parameters ?? {}).length,
      };
    });
    return { templates, ...counted };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The route table doubled: beside every row a twin with the same handler, so
 * in the same group, and its path under a path part of its own (`/twin/api/v2/...`),
 * so that the twins make as many path parts as today's rows do: the new
 * routes spread over the groups as today's do and cost the API what today's
 * cost on average. (A twin one part deeper than its row would share its row's
 * parts, and make the growth look cheaper than the table has been.)
 */
export const doubled = (routes: readonly Route[]): Route[] =>
  routes.flatMap((route) => [route, { ...route, id: `${route.id}-twin`, path: `/twin${route.path}` }]);

export interface Growth {
  today: TemplateSize;
  doubled: TemplateSize;
  /** What each more route of the template's own adds, measured between the two. */
  perRoute: { resources: number; bytes: number; outputs: number };
  /** How many of its own routes the template holds before it reaches the budget's resources, its bytes, its outputs (Infinity: never). */
  holdsBy: { resources: number; bytes: number; outputs: number };
  /** The least of those. */
  holds: number;
}

const GROWING = ['resources', 'bytes', 'outputs'] as const;

/** Each template today and with the table doubled, and how it grows. */
export function growth(routes: readonly Route[] = routeTable): { today: Measurement; doubled: Measurement; templates: Growth[] } {
  const today = measure(routes);
  const twice = measure(doubled(routes));
  const templates = today.templates.map((now): Growth => {
    const then = twice.templates.find((candidate) => candidate.name === now.name)!;
    const added = then.routes - now.routes;
    const slope = (key: (typeof GROWING)[number]) => (added > 0 ? (then[key] - now[key]) / added : 0);
    const perRoute = { resources: slope('resources'), bytes: slope('bytes'), outputs: slope('outputs') };
    const holdsUntil = (key: (typeof GROWING)[number]) =>
      perRoute[key] > 0 ? now.routes + Math.floor((STACK_BUDGET[key] - now[key]) / perRoute[key]) : Infinity;
    const holdsBy = { resources: holdsUntil('resources'), bytes: holdsUntil('bytes'), outputs: holdsUntil('outputs') };
    return { today: now, doubled: then, perRoute, holdsBy, holds: Math.min(...GROWING.map((key) => holdsBy[key])) };
  });
  return { today, doubled: twice, templates };
}

/** The route count at which the first template reaches the budget, when every template's routes grow by the same factor. */
export function layoutHolds(templates: readonly Growth[], routeCount: number): number {
  const factors = templates.filter((template) => template.today.routes > 0).map((template) => template.holds / template.today.routes);
  return Math.floor(routeCount * Math.min(...factors));
}

/** The route count at which the API's path parts reach their budget, each more route adding what the doubled table's did. */
export function apiResourcesHold(today: Measurement, twice: Measurement, routeCount: number): number {
  const perRoute = (twice.apiResources - today.apiResources) / routeCount;
  return routeCount + Math.floor((API_RESOURCES_BUDGET - today.apiResources) / perRoute);
}

/** API Gateway's cap on a mapping template, the body a mock integration answers: the OpenAPI document is served from a bucket instead. */
export const MAPPING_TEMPLATE_BYTES = 300 * KB;

/** The OpenAPI document as its bucket serves it (lib/aws/api-reference.ts: compact JSON). */
export const openApiBytes = (): number =>
  Buffer.byteLength(JSON.stringify(openApiDocument({ octo: octoDocument }, { problemBaseUrl: DEFAULT_PROBLEM_BASE_URL })));

/** The template that reaches the budget first, relative to its own routes. */
export const limiting = (templates: readonly Growth[]): Growth =>
  templates
    .filter((template) => template.today.routes > 0)
    .reduce((first, template) => (template.holds / template.today.routes < first.holds / first.today.routes ? template : first));

function print(): void {
  const { today, doubled: twice, templates } = growth();
  const routeCount = routeTable.length;
  const kb = (bytes: number) => (bytes / KB).toFixed(1);
  const columns = (cells: (string | number)[], widths: number[]) =>
    cells.map((cell, index) => (index === 0 ? String(cell).padEnd(widths[0]) : String(cell).padStart(widths[index]))).join('  ');
  const widths = [34, 6, 9, 8, 7, 6, 10, 8, 10, 8, 6];
  console.log(
    `Budget per template: ${STACK_BUDGET.resources} resources, ${kb(STACK_BUDGET.bytes)} KB, ${STACK_BUDGET.outputs} outputs, ${STACK_BUDGET.parameters} parameters ` +
      `(CloudFormation's limits: ${CLOUDFORMATION_LIMITS.resources}, ${kb(CLOUDFORMATION_LIMITS.bytes)} KB, ${CLOUDFORMATION_LIMITS.outputs}, ${CLOUDFORMATION_LIMITS.parameters})`,
  );
  console.log(
    columns(
      ['template', 'routes', 'resources', 'KB', 'outputs', 'params', '2x: res.', '2x: KB', 'res./route', 'KB/route', 'holds'],
      widths,
    ),
  );
  for (const { today: now, doubled: then, perRoute, holds } of templates) {
    console.log(
      columns(
        [
          now.name,
          now.routes,
          now.resources,
          kb(now.bytes),
          now.outputs,
          now.parameters,
          then.resources,
          kb(then.bytes),
          perRoute.resources.toFixed(2),
          kb(perRoute.bytes),
          now.routes > 0 ? holds : '-',
        ],
        widths,
      ),
    );
  }
  const total = (measurement: Measurement) => measurement.templates.reduce((sum, template) => sum + template.resources, 0);
  const largest = [...today.templates].sort((a, b) => b.bytes - a.bytes)[0];
  console.log(
    `${routeCount} routes: ${total(today)} resources in ${today.templates.length} templates (${(total(today) / routeCount).toFixed(1)} per route); ` +
      `${routeCount * 2} routes: ${total(twice)} (${((total(twice) - total(today)) / routeCount).toFixed(1)} more per route)`,
  );
  console.log(`Largest template: ${largest.name}, ${kb(largest.bytes)} KB, ${largest.resources} resources`);
  const perRoute = (measurement: Measurement) => (measurement.apiMethods + measurement.apiResources) / routeCount;
  console.log(
    `API: ${today.apiMethods} methods and ${today.apiResources} path parts for ${routeCount} routes (${perRoute(today).toFixed(2)} a route); ` +
      `the doubled table's routes add ${(perRoute(twice) - perRoute(today)).toFixed(2)} a route`,
  );
  console.log(
    `API Gateway resources (path parts): ${today.apiResources} (${twice.apiResources} at ${routeCount * 2} routes), budget ${API_RESOURCES_BUDGET} ` +
      `(API Gateway's quota: ${API_GATEWAY_RESOURCES_PER_API} per API), reached at ${apiResourcesHold(today, twice, routeCount)} routes`,
  );
  const routesUntil = (count: number) => (Number.isFinite(count) ? `${count} routes` : 'no count of routes');
  const first = limiting(templates);
  console.log(
    `${first.today.name} reaches the budget's ${STACK_BUDGET.resources} resources at ${routesUntil(first.holdsBy.resources)}, ` +
      `its ${kb(STACK_BUDGET.bytes)} KB at ${routesUntil(first.holdsBy.bytes)}, its ${STACK_BUDGET.outputs} outputs at ${routesUntil(first.holdsBy.outputs)}`,
  );
  console.log(
    `The layout holds ${layoutHolds(templates, routeCount)} routes before a template reaches the budget, the groups growing as today`,
  );
  console.log(`IAM roles: ${today.roles} in all templates (${twice.roles} at ${routeCount * 2} routes)`);
  console.log(
    `OpenAPI document, as its bucket serves it: ${kb(openApiBytes())} KB (a mapping template holds ${kb(MAPPING_TEMPLATE_BYTES)} KB)`,
  );
}

if (require.main === module) print();
