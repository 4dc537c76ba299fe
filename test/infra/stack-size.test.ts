import { routes } from '../../shared/api/routes';
import {
  API_GATEWAY_RESOURCES_PER_API,
  CLOUDFORMATION_LIMITS,
  STACK_BUDGET,
  doubled,
  growth,
  layoutHolds,
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

  it('keeps the API’s resources (its path parts) within API Gateway’s quota per API with twice today’s routes', () => {
    expect(twice.apiResources).toBeGreaterThan(today.apiResources);
    expect(twice.apiResources).toBeLessThanOrEqual(API_GATEWAY_RESOURCES_PER_API);
  });
});
