import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { RouteFunctions } from '../lib/aws/route-functions';
import { OtaUsageStack } from '../lib/aws/stack';
import { routes as routeTable, type Route } from '../shared/api/routes';

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
    let apiResources = 0;
    const templates = stacks.map((stack): TemplateSize => {
      const file = path.join(outdir, stack.templateFile);
      const template = JSON.parse(readFileSync(file, 'utf8'));
      const resources = Object.values<{ Type: string }>(template.Resources ?? {});
      apiResources += resources.filter((resource) => resource.Type === 'AWS::ApiGateway::Resource').length;
      return {
        name: stack.node.path,
        routes: stack === root ? routes.length : stack instanceof RouteFunctions ? stack.routes.length : 0,
        resources: resources.length,
        bytes: statSync(file).size,
        outputs: Object.keys(template.Outputs ?? {}).length,
        parameters: Object.keys(template.Parameters ?? {}).length,
      };
    });
    return { templates, apiResources };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * The route table doubled: beside every row a twin one path part deeper, with
 * the same handler, so in the same group. The new routes spread over the
 * groups as today's do.
 */
export const doubled = (routes: readonly Route[]): Route[] =>
  routes.flatMap((route) => [route, { ...route, id: `${route.id}-twin`, path: `${route.path}/twin` }]);

export interface Growth {
  today: TemplateSize;
  doubled: TemplateSize;
  /** What each more route of the template's own adds, measured between the two. */
  perRoute: { resources: number; bytes: number; outputs: number };
  /** How many of its own routes the template holds before it reaches the budget's resources, bytes or outputs. */
  holds: number;
}

/** Each template today and with the table doubled, and how it grows. */
export function growth(routes: readonly Route[] = routeTable): { today: Measurement; doubled: Measurement; templates: Growth[] } {
  const today = measure(routes);
  const twice = measure(doubled(routes));
  const templates = today.templates.map((now): Growth => {
    const then = twice.templates.find((candidate) => candidate.name === now.name)!;
    const added = then.routes - now.routes;
    const slope = (key: 'resources' | 'bytes' | 'outputs') => (added > 0 ? (then[key] - now[key]) / added : 0);
    const perRoute = { resources: slope('resources'), bytes: slope('bytes'), outputs: slope('outputs') };
    const room = Math.min(
      ...(['resources', 'bytes', 'outputs'] as const).map((key) =>
        perRoute[key] > 0 ? (STACK_BUDGET[key] - now[key]) / perRoute[key] : Infinity,
      ),
    );
    return { today: now, doubled: then, perRoute, holds: now.routes + Math.floor(room) };
  });
  return { today, doubled: twice, templates };
}

/** The route count at which the first template reaches the budget, when every template's routes grow by the same factor. */
export function layoutHolds(templates: readonly Growth[], routeCount: number): number {
  const factors = templates.filter((template) => template.today.routes > 0).map((template) => template.holds / template.today.routes);
  return Math.floor(routeCount * Math.min(...factors));
}

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
  console.log(
    `API Gateway resources: ${today.apiResources} (${twice.apiResources} at ${routeCount * 2} routes) of ${API_GATEWAY_RESOURCES_PER_API} per API`,
  );
  console.log(
    `The layout holds ${layoutHolds(templates, routeCount)} routes before a template reaches the budget, the groups growing as today`,
  );
}

if (require.main === module) print();
