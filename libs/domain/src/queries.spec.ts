import { describe, expect, it } from 'vitest';
import {
  ZGetActivityRequestSchema,
  ZListActivitiesRequestSchema,
  ZListWalletAccountsRequestSchema,
  ZWhoamiRequestSchema,
} from './queries.js';

describe('query requests', () => {
  it('whoami requires a string organizationId and ignores unknown keys', () => {
    expect(ZWhoamiRequestSchema.parse({ organizationId: 'org-1', future: 1 })).toEqual({ organizationId: 'org-1' });
    const r = ZWhoamiRequestSchema.safeParse({ organizationId: 7 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['organizationId']);
    expect(r.error?.issues[0]?.message).toMatch(/expected string/);
  });

  it('get_activity requires activityId', () => {
    expect(ZGetActivityRequestSchema.safeParse({ organizationId: 'o' }).success).toBe(false);
  });

  it('list_activities validates statuses and normalises pagination', () => {
    const parsed = ZListActivitiesRequestSchema.parse({
      organizationId: 'o',
      filterByStatus: ['ACTIVITY_STATUS_COMPLETED'],
      filterByType: ['ACTIVITY_TYPE_CREATE_WALLET'],
      paginationOptions: { limit: '20' },
    });
    expect(parsed.paginationOptions).toEqual({ limit: 20 });
    expect(ZListActivitiesRequestSchema.safeParse({ organizationId: 'o', filterByStatus: ['DONE'] }).success).toBe(false);
    expect(
      ZListActivitiesRequestSchema.safeParse({ organizationId: 'o', paginationOptions: { before: 'a', after: 'b' } }).success,
    ).toBe(false);
  });

  it('list_wallet_accounts defaults includeWalletDetails to false', () => {
    expect(ZListWalletAccountsRequestSchema.parse({ organizationId: 'o' })).toEqual({
      organizationId: 'o',
      includeWalletDetails: false,
    });
    expect(ZListWalletAccountsRequestSchema.safeParse({ organizationId: 'o', includeWalletDetails: 'yes' }).success).toBe(
      false,
    );
  });
});
