import { describe, expect, it } from 'vitest';
import { ZActivityRequestSchema, ZActivityResponseSchema } from './activity.js';
import { toTimestamp } from './common.js';

const envelope = {
  type: 'ACTIVITY_TYPE_CREATE_WALLET',
  timestampMs: '1700000000000',
  organizationId: 'org-1',
  parameters: { walletName: 'w', accounts: [] },
};

describe('ZActivityRequestSchema', () => {
  it('accepts a well-formed envelope, with or without generateAppProofs', () => {
    expect(ZActivityRequestSchema.parse(envelope)).toEqual(envelope);
    expect(ZActivityRequestSchema.parse({ ...envelope, generateAppProofs: true }).generateAppProofs).toBe(true);
  });

  it('rejects a non-string timestampMs', () => {
    const r = ZActivityRequestSchema.safeParse({ ...envelope, timestampMs: 1700000000000 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['timestampMs']);
  });

  it.each(['', 'abc', '-1', '17e11', '1.5'])('rejects timestampMs %j', (timestampMs) => {
    expect(ZActivityRequestSchema.safeParse({ ...envelope, timestampMs }).success).toBe(false);
  });

  it('ignores unknown top-level keys, as newer clients may send them', () => {
    const r = ZActivityRequestSchema.safeParse({ ...envelope, extra: 1 });
    expect(r.success).toBe(true);
    expect(r.data).not.toHaveProperty('extra');
  });

  it.each([null, [], 'x', 1])('rejects parameters %j', (parameters) => {
    const r = ZActivityRequestSchema.safeParse({ ...envelope, parameters });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['parameters']);
  });

  it('requires every envelope field', () => {
    for (const key of ['type', 'timestampMs', 'organizationId', 'parameters'] as const) {
      const { [key]: _dropped, ...rest } = envelope;
      expect(ZActivityRequestSchema.safeParse(rest).success).toBe(false);
    }
  });

  it('rejects a non-boolean generateAppProofs', () => {
    expect(ZActivityRequestSchema.safeParse({ ...envelope, generateAppProofs: 'true' }).success).toBe(false);
  });
});

describe('ZActivityResponseSchema', () => {
  const now = toTimestamp(new Date(1_700_000_000_000));
  const activity = {
    id: 'act-1',
    organizationId: 'org-1',
    status: 'ACTIVITY_STATUS_COMPLETED',
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    intent: { createWalletIntent: { walletName: 'w', accounts: [] } },
    result: { createWalletResult: { walletId: 'w-1', addresses: [] } },
    votes: [],
    fingerprint: 'sha256:00',
    canApprove: false,
    canReject: false,
    createdAt: now,
    updatedAt: now,
  };

  it('accepts a completed activity and a failed one', () => {
    expect(ZActivityResponseSchema.parse({ activity })).toEqual({ activity });
    const failed = { ...activity, status: 'ACTIVITY_STATUS_FAILED', failure: { code: 3, message: 'bad', details: [] } };
    expect(ZActivityResponseSchema.parse({ activity: failed }).activity.failure?.code).toBe(3);
  });

  it('rejects an unknown status', () => {
    expect(ZActivityResponseSchema.safeParse({ activity: { ...activity, status: 'DONE' } }).success).toBe(false);
  });
});
