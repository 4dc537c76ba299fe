import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOperator } from '../../shared/accounts/operators';
import { recordUsage } from '../../shared/usage/record-usage';
import { admin } from '../support/admin-cli';
import { uniqueOperatorId } from '../support/fixtures';

describe('admin CLI: usage limits', () => {
  it('puts a limit from a file, lists it with its status, reads its status, refuses a bad one naming the field, and deletes it', async () => {
    const tenant = uniqueOperatorId('cli-limits');
    await createOperator({ OperatorID: tenant, Name: 'Limits', TimeZone: 'America/New_York' });
    const dir = mkdtempSync(path.join(tmpdir(), 'limit-'));
    const file = path.join(dir, 'limit.json');
    writeFileSync(file, '{"Meter":"api-calls","Period":"MONTH","Amount":100.5,"Thresholds":[80,50],"Enforcement":"REFUSE"}');
    const put = await admin('put-usage-limit', '--operator', tenant, '--limit', 'monthly', '--file', file);
    expect(put).toEqual({
      code: 0,
      out: expect.stringMatching(
        /^monthly {2}api-calls {2}100\.5 per MONTH \(America\/New_York\) {2}thresholds 50,80% {2}REFUSE {2}applies from \d{4}-\d{2}-01T0[45]:00:00\.000Z, in table /,
      ),
    });
    await recordUsage(tenant, { Meter: 'api-calls', Usage: 60.25 });
    expect((await admin('usage-limit-status', '--operator', tenant, '--limit', 'monthly')).out).toMatch(
      /^used 60\.25 of 100\.5 \(40\.25 remaining\) from .* until .*; crossed: 50%\n$/,
    );
    expect((await admin('list-usage-limits', '--operator', tenant)).out).toMatch(/^monthly {2}api-calls .* used 60\.25 of 100\.5/);

    writeFileSync(file, '{"Meter":"api-calls","Period":"WEEK","Amount":-1,"Thresholds":[],"Enforcement":"REFUSE"}');
    expect(await admin('put-usage-limit', '--operator', tenant, '--limit', 'weekly', '--file', file)).toEqual({
      code: 1,
      out: expect.stringMatching(/Field 'Period' must be 'DAY' or 'MONTH'\nField 'Amount' must be a number greater than 0/),
    });
    expect((await admin('put-usage-limit', '--operator', tenant, '--limit', 'a.b', '--file', file)).out).toMatch(
      /Field 'LimitID' must be 1 to 64/,
    );
    expect(await admin('delete-usage-limit', '--operator', tenant, '--limit', 'monthly')).toEqual({
      code: 0,
      out: expect.stringContaining(`Deleted usage limit monthly of ${tenant}`),
    });
    expect(await admin('usage-limit-status', '--operator', tenant, '--limit', 'monthly')).toEqual({
      code: 1,
      out: expect.stringContaining("Usage limit 'monthly' does not exist"),
    });
    expect((await admin('list-usage-limits', '--operator', tenant)).out).toMatch(/^No usage limits in table/);
  });
});
