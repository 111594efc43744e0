import { ACTIVITY_STATUSES, type TActivityStatus } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { InvalidTransitionError, isTerminal, nextStatus, type TActivityEvent } from './status-machine.js';

const EVENTS: TActivityEvent[] = ['POLICY_ALLOWED', 'CONSENSUS_REQUIRED', 'AUTHENTICATORS_REQUIRED', 'QUORUM_REACHED', 'REJECTED', 'EXECUTED', 'EXECUTION_FAILED'];

describe('activity status machine', () => {
  it('runs the happy path CREATED → PENDING → COMPLETED', () => {
    const s = nextStatus(nextStatus('ACTIVITY_STATUS_CREATED', 'POLICY_ALLOWED'), 'EXECUTED');
    expect(s).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('runs the consensus path and the failure path', () => {
    const waiting = nextStatus('ACTIVITY_STATUS_CREATED', 'CONSENSUS_REQUIRED');
    expect(waiting).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(nextStatus(waiting, 'REJECTED')).toBe('ACTIVITY_STATUS_REJECTED');
    expect(nextStatus(nextStatus(waiting, 'QUORUM_REACHED'), 'EXECUTION_FAILED')).toBe('ACTIVITY_STATUS_FAILED');
  });

  it('runs the MFA path: AUTHENTICATORS_NEEDED, then the policies decide (allow, consensus or reject)', () => {
    const waiting = nextStatus('ACTIVITY_STATUS_CREATED', 'AUTHENTICATORS_REQUIRED');
    expect(waiting).toBe('ACTIVITY_STATUS_AUTHENTICATORS_NEEDED');
    expect(nextStatus(nextStatus(waiting, 'POLICY_ALLOWED'), 'EXECUTED')).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(nextStatus(waiting, 'CONSENSUS_REQUIRED')).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED');
    expect(nextStatus(waiting, 'REJECTED')).toBe('ACTIVITY_STATUS_REJECTED');
    expect(() => nextStatus(waiting, 'QUORUM_REACHED')).toThrow(InvalidTransitionError);
    expect(() => nextStatus('ACTIVITY_STATUS_CONSENSUS_NEEDED', 'AUTHENTICATORS_REQUIRED')).toThrow(InvalidTransitionError);
  });

  it('never leaves a terminal status', () => {
    for (const s of ACTIVITY_STATUSES as readonly TActivityStatus[]) {
      if (!isTerminal(s)) continue;
      for (const e of EVENTS) expect(() => nextStatus(s, e)).toThrow(InvalidTransitionError);
    }
  });

  it('refuses skipping the policy step', () => {
    expect(() => nextStatus('ACTIVITY_STATUS_CREATED', 'EXECUTED')).toThrow(/cannot take EXECUTED/);
  });
});
