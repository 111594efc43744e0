import { describe, expect, it } from 'vitest';
import { tvcDeploymentLabel } from './tvc-state.js';

const deployment = (o: { approvals?: string[]; threshold?: number; deleted?: boolean } = {}) => ({
  id: 'd1',
  delete: o.deleted ?? false,
  manifestSet: { threshold: o.threshold ?? 2 },
  manifestApprovals: (o.approvals ?? []).map((id) => ({ operator: { id } })),
});

describe('tvcDeploymentLabel', () => {
  it('is CREATED until the threshold of distinct operators signed, then APPROVED', () => {
    expect(tvcDeploymentLabel(deployment({ approvals: ['a'] }), {})).toBe('CREATED');
    expect(tvcDeploymentLabel(deployment({ approvals: ['a', 'a'] }), {})).toBe('CREATED');
    expect(tvcDeploymentLabel(deployment({ approvals: ['a', 'b'] }), {})).toBe('APPROVED');
  });

  it("is LIVE when the app names it, DELETED when deleted (whatever else holds)", () => {
    expect(tvcDeploymentLabel(deployment({ approvals: ['a', 'b'] }), { liveDeploymentId: 'd1' })).toBe('LIVE');
    expect(tvcDeploymentLabel(deployment({ approvals: ['a', 'b'] }), { liveDeploymentId: 'd2' })).toBe('APPROVED');
    expect(tvcDeploymentLabel(deployment({ approvals: ['a', 'b'], deleted: true }), { liveDeploymentId: 'd1' })).toBe('DELETED');
  });
});
