import { putUsageLimitFromFile } from '../shared/usage/limit-file';
import type { UsageLimit, UsageLimitStatus } from '../shared/usage/limit-schemas';
import { readLimitStatus } from '../shared/usage/limit-status';
import { deleteUsageLimit, listUsageLimits } from '../shared/usage/limits';

/**
 * The admin CLI's commands of usage limits: a limit put from a file (checked
 * by the PUT route's schema), listed with each status, read, deleted.
 */
interface Options {
  option(name: 'operator' | 'limit' | 'file'): string;
  readJsonFile(file: string): unknown;
}

const describeLimit = (limit: UsageLimit) =>
  `${limit.LimitID}  ${limit.Meter}${limit.Filter ? ` ${JSON.stringify(limit.Filter)}` : ''}  ${limit.Amount} per ${limit.Period} (${limit.TimeZone})  ` +
  `thresholds ${limit.Thresholds.join(',') || 'none'}%  ${limit.Enforcement}`;

const describeStatus = (status: UsageLimitStatus) =>
  `used ${status.Used} of ${status.Amount} (${status.Remaining} remaining${status.Allowed ? '' : ', reached'}) ` +
  `from ${new Date(status.PeriodStart * 1000).toISOString()} until ${new Date(status.ResetsAt * 1000).toISOString()}; crossed: ` +
  `${
    status.Thresholds.filter((threshold) => threshold.Crossed)
      .map((threshold) => `${threshold.Percent}%`)
      .join(', ') || 'none'
  }`;

export const usageLimitCommands = ({ option, readJsonFile }: Options): Record<string, (target: string) => Promise<void>> => ({
  'put-usage-limit': async (target) => {
    const limit = await putUsageLimitFromFile(option('operator'), option('limit'), readJsonFile(option('file')));
    console.log(`${describeLimit(limit)}  applies from ${new Date(limit.AppliesFrom * 1000).toISOString()}, in ${target}`);
  },
  'list-usage-limits': async (target) => {
    const limits = await listUsageLimits(option('operator'));
    if (!limits.length) console.log(`No usage limits in ${target}.`);
    for (const limit of limits) {
      console.log(`${describeLimit(limit)}  ${describeStatus((await readLimitStatus(option('operator'), limit.LimitID)).status)}`);
    }
  },
  'usage-limit-status': async (_target) => {
    console.log(describeStatus((await readLimitStatus(option('operator'), option('limit'))).status));
  },
  'delete-usage-limit': async (target) => {
    await deleteUsageLimit(option('operator'), option('limit'));
    console.log(`Deleted usage limit ${option('limit')} of ${option('operator')} in ${target}`);
  },
});
