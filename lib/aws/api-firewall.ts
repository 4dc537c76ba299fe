import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { ADDRESS_RATE_LIMITED, FIREWALL } from '../../shared/api/gateway';
import { OPENAPI_PATH } from '../../shared/http/openapi';
import { frontDoorProblem } from './problem-gateway-responses';

export interface ApiFirewallProps {
  stage: Stage;
  problemBaseUrl: string;
  /** Requests one address may send in the window, to any route; FIREWALL's default when absent. */
  requestsPerAddress?: number;
}

const BODY_KEY = ADDRESS_RATE_LIMITED.kind;

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

/** A rule that blocks an address past `limit` requests in the window (of those `scopeDown` matches, if given) with the 429 problem. */
const perAddress = (name: string, priority: number, limit: number, scopeDown?: CfnWebACL.StatementProperty): CfnWebACL.RuleProperty => ({
  name,
  priority,
  statement: {
    rateBasedStatement: {
      aggregateKeyType: 'IP',
      evaluationWindowSec: FIREWALL.windowSeconds,
      limit,
      ...(scopeDown ? { scopeDownStatement: scopeDown } : {}),
    },
  },
  action: {
    block: {
      customResponse: {
        responseCode: ADDRESS_RATE_LIMITED.status,
        customResponseBodyKey: BODY_KEY,
        responseHeaders: Object.entries(ADDRESS_RATE_LIMITED.headers ?? {}).map(([name, value]) => ({ name, value })),
      },
    },
  },
  visibilityConfig: visibility(name),
});

/**
 * AWS WAF in front of the API stage: each client address may send so many
 * requests a window, and fewer to the public OpenAPI document. It counts
 * before the authorizer runs, so a flood of requests with random keys (each
 * an authorizer run and a read) or of the public document costs its source
 * its own allowance, not the stage's 500/s that partners share. Partners'
 * own limits stay their keys' usage plans. WAF answers its 429 itself, as
 * JSON (it cannot say application/problem+json, nor fill in the instance).
 */
export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const documentPath: CfnWebACL.StatementProperty = {
      // Behind the stage's URL the path carries the stage (`/v1/api/v2/...`); behind a custom domain it does not.
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'ENDS_WITH',
        searchString: OPENAPI_PATH,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    };
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'OTA usage service: requests per client address, before any key is read',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [BODY_KEY]: { contentType: 'APPLICATION_JSON', content: frontDoorProblem(ADDRESS_RATE_LIMITED, props.problemBaseUrl) },
      },
      rules: [
        perAddress('public-document-per-address', 0, FIREWALL.documentRequestsPerAddress, documentPath),
        perAddress('requests-per-address', 1, props.requestsPerAddress ?? FIREWALL.requestsPerAddress),
      ],
      visibilityConfig: visibility('ota-usage-api'),
    });
    new CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}

/** WAF's bounds of a rate-based rule's limit. */
const WAF_LIMIT = { min: 10, max: 2_000_000_000 };

/**
 * The stack's firewall option from the CDK context: `waf=false` turns it
 * off; `wafRequestsPerAddress=N` sets what one address may send a window.
 * Context values come as text from `-c` and as JSON from cdk.json.
 */
export function firewallOption(waf: unknown, requestsPerAddress: unknown): false | { requestsPerAddress?: number } {
  if (waf !== undefined && !['true', 'false'].includes(String(waf))) {
    throw new Error(`The context option waf must be true or false, not '${String(waf)}'`);
  }
  if (String(waf) === 'false') return false;
  if (requestsPerAddress === undefined) return {};
  const limit = Number(requestsPerAddress);
  if (!Number.isInteger(limit) || limit < WAF_LIMIT.min || limit > WAF_LIMIT.max) {
    throw new Error(
      `The context option wafRequestsPerAddress must be a whole number of requests from ${WAF_LIMIT.min} to ${WAF_LIMIT.max}, not '${String(requestsPerAddress)}'`,
    );
  }
  return { requestsPerAddress: limit };
}
