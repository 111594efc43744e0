/**
 * The deployment state machine, edge for edge with the README's diagram: every state × event,
 * the allowed ones with their target, the refused ones with a 400 naming the deployment.
 */
import { AppError } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { deploymentStateOf, nextDeploymentState, type TDeploymentEvent, type TDeploymentState } from './deployment-state.js';

const STATES: TDeploymentState[] = ['CREATED', 'APPROVED', 'LIVE', 'DELETED'];
const EVENTS: TDeploymentEvent[] = [
  { kind: 'APPROVE', thresholdMet: false },
  { kind: 'APPROVE', thresholdMet: true },
  { kind: 'SET_LIVE' },
  { kind: 'REPLACED' },
  { kind: 'DELETE' },
  { kind: 'RESTORE', approved: false },
  { kind: 'RESTORE', approved: true },
  { kind: 'DELETE_APP' },
];
const key = (s: TDeploymentState, e: TDeploymentEvent) => `${s} ${e.kind}${'thresholdMet' in e ? `(${e.thresholdMet})` : ''}${'approved' in e ? `(${e.approved})` : ''}`;

/** The diagram: every allowed transition; anything else is refused. */
const ALLOWED: Record<string, TDeploymentState> = {
  'CREATED APPROVE(false)': 'CREATED',
  'CREATED APPROVE(true)': 'APPROVED',
  'APPROVED APPROVE(false)': 'APPROVED',
  'APPROVED APPROVE(true)': 'APPROVED',
  'LIVE APPROVE(false)': 'LIVE',
  'LIVE APPROVE(true)': 'LIVE',
  'APPROVED SET_LIVE': 'LIVE',
  'LIVE SET_LIVE': 'LIVE',
  'LIVE REPLACED': 'APPROVED',
  'CREATED DELETE': 'DELETED',
  'APPROVED DELETE': 'DELETED',
  'DELETED RESTORE(false)': 'CREATED',
  'DELETED RESTORE(true)': 'APPROVED',
  'CREATED DELETE_APP': 'DELETED',
  'APPROVED DELETE_APP': 'DELETED',
  'LIVE DELETE_APP': 'DELETED',
  'DELETED DELETE_APP': 'DELETED',
};

describe('nextDeploymentState', () => {
  for (const s of STATES) {
    for (const e of EVENTS) {
      const k = key(s, e);
      const target = ALLOWED[k];
      if (target) {
        it(`${k} → ${target}`, () => expect(nextDeploymentState(s, e)).toBe(target));
      } else {
        it(`${k} is refused`, () => {
          let err: unknown;
          try {
            nextDeploymentState(s, e);
          } catch (x) {
            err = x;
          }
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).code).toBe('BAD_REQUEST');
          expect((err as AppError).fields).toEqual({ field: 'deploymentId', state: s, event: e.kind });
        });
      }
    }
  }

  it('says what to do instead', () => {
    expect(() => nextDeploymentState('CREATED', { kind: 'SET_LIVE' })).toThrow(/not approved.*create_tvc_manifest_approvals/);
    expect(() => nextDeploymentState('LIVE', { kind: 'DELETE' })).toThrow(/live: set another deployment live first/);
    expect(() => nextDeploymentState('APPROVED', { kind: 'RESTORE', approved: true })).toThrow(/only a deleted deployment can be restored; this one is APPROVED/);
  });
});

describe('deploymentStateOf', () => {
  const at = new Date();
  it('reads deleted before live, live before approved', () => {
    expect(deploymentStateOf({ id: 'd', deletedAt: at, approvedAt: at }, { liveDeploymentId: 'd' })).toBe('DELETED');
    expect(deploymentStateOf({ id: 'd', deletedAt: null, approvedAt: at }, { liveDeploymentId: 'd' })).toBe('LIVE');
    expect(deploymentStateOf({ id: 'd', deletedAt: null, approvedAt: at }, { liveDeploymentId: 'other' })).toBe('APPROVED');
    expect(deploymentStateOf({ id: 'd', deletedAt: null, approvedAt: null }, { liveDeploymentId: null })).toBe('CREATED');
  });
});
