import { NestedStack, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { ServiceStack } from '../../lib/aws/service-stack';

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

/** A resource of one of the templates, with the stack it is in. */
export interface Found {
  stack: Stack;
  id: string;
  resource: Resource;
}

/**
 * The templates of a stack and of every stack nested in it, read as the
 * assertions library synthesizes them, for tests of what spans them (a
 * function in a nested stack, the method that calls it in the parent).
 */
export class StackTemplates {
  readonly stacks: Stack[];
  private readonly templates = new Map<Stack, Template>();

  constructor(readonly root: Stack) {
    this.stacks = [root, ...root.node.findAll().filter((construct): construct is NestedStack => construct instanceof NestedStack)];
    for (const stack of this.stacks) this.templates.set(stack, Template.fromStack(stack));
  }

  /** The root and the nested stacks of the service's own functions (not the dashboard site's CDK-made ones). */
  get serviceStacks(): Stack[] {
    return this.stacks.filter((stack) => stack === this.root || stack instanceof ServiceStack);
  }

  template(stack: Stack): Template {
    return this.templates.get(stack)!;
  }

  templateOf(construct: IConstruct): Template {
    return this.template(Stack.of(construct));
  }

  /** The construct's logical ID in its own stack's template. */
  logicalId(construct: IConstruct): string {
    return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
  }

  resourceOf(construct: IConstruct): Resource {
    return this.templateOf(construct).toJSON().Resources[this.logicalId(construct)];
  }

  /** Every resource of the type, in the given stacks (all of them by default). */
  resources(type: string, stacks: Stack[] = this.stacks): Found[] {
    return stacks.flatMap((stack) =>
      Object.entries(this.template(stack).findResources(type) as Record<string, Resource>).map(([id, resource]) => ({
        stack,
        id,
        resource,
      })),
    );
  }

  /** What the parent stack passes to a nested stack's parameter. */
  parameterValue(stack: Stack, name: string): unknown {
    const nested = stack as NestedStack;
    const parent = nested.nestedStackParent!;
    return this.template(parent).toJSON().Resources[parent.getLogicalId(nested.nestedStackResource as CfnElement)].Properties.Parameters[
      name
    ];
  }

  /** A reference as written in `stack`: a parameter of that name in a nested stack, set by the parent to `rootValue`. */
  referenceIn(stack: Stack, parameter: string, rootValue: unknown): unknown {
    if (stack === this.root) return rootValue;
    expect(this.parameterValue(stack, parameter)).toEqual(rootValue);
    return { Ref: parameter };
  }

  /** The IAM actions of the policies attached to a function's role, in the function's stack. */
  actionsOf(fn: { role?: IConstruct }): string[] {
    const roleId = this.logicalId(fn.role!);
    return this.resources('AWS::IAM::Policy', [Stack.of(fn.role!)])
      .filter(({ resource }) => resource.Properties.Roles.some((role: { Ref?: string }) => role.Ref === roleId))
      .flatMap(({ resource }) =>
        resource.Properties.PolicyDocument.Statement.flatMap((statement: { Action: string | string[] }) => statement.Action),
      );
  }

  /**
   * The function a value of the parent stack names: one of its own
   * (`{"Ref": <function>}`), or one of a nested stack through its output
   * (`{"Fn::GetAtt": [<nested stack>, "Outputs.<name>"]}` somewhere in it):
   * its stack and logical ID.
   */
  functionNamedIn(value: unknown): { stack: Stack; id: string } {
    const own = (value as { Ref?: string }).Ref;
    if (own !== undefined) {
      expect(this.template(this.root).toJSON().Resources[own]?.Type).toBe('AWS::Lambda::Function');
      return { stack: this.root, id: own };
    }
    const found = JSON.stringify(value).match(/"Fn::GetAtt":\["([^"]+)","Outputs\.([^"]+)"\]/);
    expect(found).not.toBeNull();
    const [, stackResourceId, output] = found!;
    const stack = this.stacks.find(
      (candidate) =>
        candidate !== this.root && this.root.getLogicalId((candidate as NestedStack).nestedStackResource as CfnElement) === stackResourceId,
    )!;
    const { Ref } = this.template(stack).toJSON().Outputs[output].Value;
    return { stack, id: Ref };
  }
}
