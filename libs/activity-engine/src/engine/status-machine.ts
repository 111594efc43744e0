/**
 * The activity status machine — the only place a status changes. See README.md for the diagram.
 * Every transition is an event applied to a status; anything not drawn is refused.
 */
import type { TActivityStatus } from '@latchkey/domain';
import { assertNever } from '@latchkey/domain';

export type TActivityEvent =
  /** The policy engine allowed the activity: it may run. */
  | 'POLICY_ALLOWED'
  /** More approvals are needed before it may run. */
  | 'CONSENSUS_REQUIRED'
  /** An MFA policy of the initiator applies: it waits for the initiator's authenticators (mfa.ts). */
  | 'AUTHENTICATORS_REQUIRED'
  /** Enough approvals arrived. */
  | 'QUORUM_REACHED'
  /** A voter rejected it. */
  | 'REJECTED'
  /** The handler finished and its effects are written. */
  | 'EXECUTED'
  /** The handler refused (a domain error); no effects are written. */
  | 'EXECUTION_FAILED';

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: TActivityStatus,
    readonly event: TActivityEvent,
  ) {
    super(`activity in ${from} cannot take ${event}`);
    this.name = 'InvalidTransitionError';
  }
}

/**
 * The status after `event`.
 * @throws InvalidTransitionError when the machine has no such edge.
 */
export function nextStatus(from: TActivityStatus, event: TActivityEvent): TActivityStatus {
  const refuse = (): never => {
    throw new InvalidTransitionError(from, event);
  };
  switch (from) {
    case 'ACTIVITY_STATUS_CREATED':
      if (event === 'POLICY_ALLOWED') return 'ACTIVITY_STATUS_PENDING';
      if (event === 'CONSENSUS_REQUIRED') return 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
      if (event === 'AUTHENTICATORS_REQUIRED') return 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED';
      return refuse();
    case 'ACTIVITY_STATUS_CONSENSUS_NEEDED':
      if (event === 'QUORUM_REACHED') return 'ACTIVITY_STATUS_PENDING';
      if (event === 'REJECTED') return 'ACTIVITY_STATUS_REJECTED';
      return refuse();
    case 'ACTIVITY_STATUS_PENDING':
      if (event === 'EXECUTED') return 'ACTIVITY_STATUS_COMPLETED';
      if (event === 'EXECUTION_FAILED') return 'ACTIVITY_STATUS_FAILED';
      return refuse();
    case 'ACTIVITY_STATUS_AUTHENTICATORS_NEEDED':
      if (event === 'POLICY_ALLOWED') return 'ACTIVITY_STATUS_PENDING';
      if (event === 'CONSENSUS_REQUIRED') return 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
      if (event === 'REJECTED') return 'ACTIVITY_STATUS_REJECTED';
      return refuse();
    case 'ACTIVITY_STATUS_COMPLETED':
    case 'ACTIVITY_STATUS_FAILED':
    case 'ACTIVITY_STATUS_REJECTED':
      return refuse();
    default:
      return assertNever(from);
  }
}

/** Terminal statuses never change again. */
export function isTerminal(status: TActivityStatus): boolean {
  return status === 'ACTIVITY_STATUS_COMPLETED' || status === 'ACTIVITY_STATUS_FAILED' || status === 'ACTIVITY_STATUS_REJECTED';
}

/** Whether voters may still approve or reject. */
export function isVotable(status: TActivityStatus): boolean {
  return status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED';
}
