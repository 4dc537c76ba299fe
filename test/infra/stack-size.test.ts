import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../shared/api/routes';
import {
  API_GATEWAY_RESOURCES_PER_API,
  API_RESOURCES_BUDGET,
  CLOUDFORMATION_LIMITS,
  STACK_BUDGET,
  apiResourcesHold,
  doubled,
  growth,
  layoutHolds,
  limiting,
  openApiBytes,
  type Growth,
  type Measurement,
  type TemplateSize,
} from '../../scripts/stack-size';

/*
 * CloudFormation refuses a template past 500 resources or 1 MB, and every
 * local test stays green while a stack creeps towards that: this holds each
 * template the stack synthesizes (the top-level one and every nested stack's)
 * to the budget, today and with the route table doubled, and checks the
 * growth measured between the two leaves room for twice today's routes.
 * `npm run stack-size` prints the figures.
 */
let today: Measurement;
let twice: Measurement;
let templates: Growth[];

beforeAll(() => {
  ({ today, doubled: twice, templates } = growth(routes));
});

const overBudget = (template: TemplateSize) =>
  (['resources', 'bytes', 'outputs', 'parameters'] as const)
    .filter((key) => template[key] > STACK_BUDGET[key])
    .map((key) => `${template.name}: ${template[key]} ${key}, over ${STACK_BUDGET[key]}`);

describe('the stack fits CloudFormation with room to spare', () => {
  it('keeps the budget under each of CloudFormation’s limits', () => {
    for (const key of ['resources', 'bytes', 'outputs', 'parameters'] as const) {
      expect(STACK_BUDGET[key]).toBeLessThan(CLOUDFORMATION_LIMITS[key]);
    }
  });

  it('has every template within the budget: resources, bytes, outputs and parameters', () => {
    expect(today.templates.length).toBeGreaterThan(1);
    expect(today.templates.flatMap(overBudget)).toEqual([]);
  });

  it('has every template within the budget with twice today’s routes', () => {
    expect(doubled(routes)).toHaveLength(routes.length * 2);
    expect(twice.templates.flatMap(overBudget)).toEqual([]);
  });

  it('grows by what each route brings, which leaves room for twice today’s routes in every template', () => {
    const growing = templates.filter((template) => template.today.routes > 0);
    // The top-level stack holds every route's method; each group's nested stack its functions.
    expect(growing.map((template) => template.today.routes).reduce((sum, count) => sum + count, 0)).toBe(routes.length * 2);
    for (const template of growing) expect(template.perRoute.resources).toBeGreaterThan(0);
    const short = growing.filter((template) => template.holds < 2 * template.today.routes);
    expect(short.map((template) => `${template.today.name} holds ${template.holds} of its routes`)).toEqual([]);
    expect(layoutHolds(templates, routes.length)).toBeGreaterThanOrEqual(2 * routes.length);
  });

  it('keeps the stacks that serve no route the same size whatever the number of routes', () => {
    for (const template of templates.filter((candidate) => candidate.today.routes === 0)) {
      expect({ name: template.today.name, resources: template.doubled.resources, bytes: template.doubled.bytes }).toEqual({
        name: template.today.name,
        resources: template.today.resources,
        bytes: template.today.bytes,
      });
    }
  });

  it('measures growth with routes that cost the API what today’s do: a method each, and as many path parts as today’s rows make', () => {
    // Each twin's path is its row's under a part of its own: the twins make every part today's rows do, and that one.
    expect(twice.apiMethods - today.apiMethods).toBe(routes.length);
    expect(twice.apiResources - today.apiResources).toBeGreaterThanOrEqual(today.apiResources);
  });

  it('keeps the API’s resources (its path parts) within their budget, under API Gateway’s quota per API, with twice today’s routes', () => {
    expect(API_RESOURCES_BUDGET).toBeLessThan(API_GATEWAY_RESOURCES_PER_API);
    expect(twice.apiResources).toBeGreaterThan(today.apiResources);
    expect(twice.apiResources).toBeLessThanOrEqual(API_RESOURCES_BUDGET);
    expect(apiResourcesHold(today, twice, routes.length)).toBeGreaterThanOrEqual(2 * routes.length);
  });
});

/*
 * docs/deploying.md states where the stack stands, as `npm run stack-size`
 * prints it: each figure of its tables is checked against what is measured
 * here, so the page cannot fall behind the route table by more than a few
 * routes.
 */
describe('docs/deploying.md', () => {
  /** How far a stated figure may be from the measured one: the page is refreshed every few routes, not with each. */
  const TOLERANCE = 0.15;
  const page = readFileSync(path.join(__dirname, '../../docs/deploying.md'), 'utf8').split('\n');
  /** The cells of the table row whose first cell is the label. */
  const row = (label: string) => page.filter((line) => line.startsWith(`| ${label} |`)).map((line) => line.split('|').slice(2, -1));
  const numbersIn = (cell: string) =>
    [...cell.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/\d+(?:\.\d+)?/g)].map(([figure]) => Number(figure));
  const kb = (bytes: number) => bytes / 1024;

  it('states the figures of the stack as measured, within 15%: routes, resources, sizes, outputs, parameters, growth', () => {
    // measure() lists the top-level stack first.
    const [top] = templates;
    const groups = templates.filter((template) => template.today.routes > 0 && template !== top);
    const largestGroup = (measurement: Measurement) =>
      Math.max(
        ...measurement.templates.filter((template) => groups.some((group) => group.today.name === template.name)).map((t) => t.resources),
      );
    const most = (measurement: Measurement, key: 'outputs' | 'parameters') => Math.max(...measurement.templates.map((t) => t[key]));
    const total = (measurement: Measurement) => measurement.templates.reduce((sum, template) => sum + template.resources, 0);
    const firstGroup = limiting(groups);
    /** Per row, the figures of each of its cells after the label (quota, budget, ...), in the order the cell states them; null: not checked. */
    const measured: Record<string, (number[] | null)[]> = {
      'Limit of the stack': [null, null, [routes.length], [2 * routes.length], null],
      'Resources per template (CloudFormation)': [
        null,
        [STACK_BUDGET.resources],
        [top.today.resources, largestGroup(today)],
        [top.doubled.resources, largestGroup(twice)],
        [top.holdsBy.resources, firstGroup.holdsBy.resources],
      ],
      'Template size (CloudFormation, uploaded through S3)': [
        null,
        [kb(STACK_BUDGET.bytes)],
        [kb(top.today.bytes)],
        [kb(top.doubled.bytes)],
        [top.holdsBy.bytes],
      ],
      'Outputs per template': [null, [STACK_BUDGET.outputs], [most(today, 'outputs')], [most(twice, 'outputs')], null],
      'Parameters per template': [null, [STACK_BUDGET.parameters], [most(today, 'parameters')], [most(twice, 'parameters')], null],
      'Resources a nested stack operation may touch': [null, null, [total(today), today.templates.length], [total(twice)], null],
      'API Gateway resources (path parts) per API': [
        null,
        [API_RESOURCES_BUDGET],
        [today.apiResources],
        [twice.apiResources],
        [apiResourcesHold(today, twice, routes.length)],
      ],
      'API Gateway mapping template size': [null, null, [kb(openApiBytes())], null, null],
      'IAM roles per account': [null, null, [today.roles], [twice.roles], null],
      'to the top-level stack': [[top.perRoute.resources], [kb(top.perRoute.bytes)]],
      "to its group's stack": [[firstGroup.perRoute.resources], [kb(firstGroup.perRoute.bytes)]],
    };
    const wrong = Object.entries(measured).flatMap(([label, cells]) => {
      const found = row(label);
      if (found.length !== 1) return [`${found.length} rows labelled "${label}"`];
      return cells.flatMap((figures, index) => {
        if (figures === null) return [];
        const stated = numbersIn(found[0][index] ?? '');
        const near = stated.length === figures.length && figures.every((figure, at) => Math.abs(stated[at] - figure) <= TOLERANCE * figure);
        return near
          ? []
          : [`${label}, column ${index + 2}: states ${stated.join(', ')}, measured ${figures.map((f) => +f.toFixed(2)).join(', ')}`];
      });
    });
    expect(wrong).toEqual([]);
  });
});
