/**
 * The life of a TVC deployment, drawn in the engine README ("TVC deployments"): every change a
 * TVC activity makes to a deployment goes through `nextDeploymentState`, one exhaustive switch;
 * a transition not drawn there is refused with a 400 that says why and what to do instead.
 *
 * The state is not a column: it follows from the rows — `deletedAt` (DELETED), the app's
 * `liveDeploymentId` (LIVE), `approvedAt` (APPROVED, set once when the manifest set's threshold
 * of operator approvals is met), else CREATED — so it cannot disagree with them.
 */
import { AppError, assertNever } from '@latchkey/domain';
import type { TTvcAppRow, TTvcDeploymentRow } from '@latchkey/persistence';

export type TDeploymentState = 'CREATED' | 'APPROVED' | 'LIVE' | 'DELETED';

/**
 * What can happen to a deployment:
 * - `APPROVE`: operator approvals are added (`thresholdMet`: with them, the manifest set's
 *   threshold is reached);
 * - `SET_LIVE`: set_tvc_app_live_deployment names it;
 * - `REPLACED`: set_tvc_app_live_deployment names another deployment of its app;
 * - `DELETE`: delete_tvc_deployment;
 * - `RESTORE`: restore_tvc_deployment (`approved`: it was approved before deletion — approvals
 *   are signatures over its manifest, and deletion does not unsign them);
 * - `DELETE_APP`: delete_tvc_app_and_deployments, which takes every deployment, the live one too.
 */
export type TDeploymentEvent =
  | { kind: 'APPROVE'; thresholdMet: boolean }
  | { kind: 'SET_LIVE' }
  | { kind: 'REPLACED' }
  | { kind: 'DELETE' }
  | { kind: 'RESTORE'; approved: boolean }
  | { kind: 'DELETE_APP' };

/** The state the rows describe. */
export function deploymentStateOf(deployment: Pick<TTvcDeploymentRow, 'id' | 'deletedAt' | 'approvedAt'>, app: Pick<TTvcAppRow, 'liveDeploymentId'>): TDeploymentState {
  if (deployment.deletedAt) return 'DELETED';
  if (app.liveDeploymentId === deployment.id) return 'LIVE';
  return deployment.approvedAt ? 'APPROVED' : 'CREATED';
}

function refuse(state: TDeploymentState, event: TDeploymentEvent['kind'], why: string, field: string): never {
  throw new AppError('BAD_REQUEST', why, { field, state, event });
}

/**
 * The state after `event`. `field` is the request field that named the deployment.
 * @throws AppError BAD_REQUEST (naming `field`, with the state and event) for a transition the
 *   diagram does not have
 */
export function nextDeploymentState(state: TDeploymentState, event: TDeploymentEvent, field = 'deploymentId'): TDeploymentState {
  const no = (why: string): never => refuse(state, event.kind, why, field);
  switch (event.kind) {
    case 'APPROVE':
      if (state === 'DELETED') no('the deployment is deleted: restore it (restore_tvc_deployment) before approving it');
      return state === 'CREATED' && event.thresholdMet ? 'APPROVED' : state;
    case 'SET_LIVE':
      if (state === 'CREATED') no("the deployment is not approved: its manifest needs the manifest set's threshold of operator approvals (create_tvc_manifest_approvals) before it can go live");
      if (state === 'DELETED') no('the deployment is deleted: restore it (restore_tvc_deployment) before setting it live');
      return 'LIVE';
    case 'REPLACED':
      if (state !== 'LIVE') no('only the live deployment can be replaced');
      return 'APPROVED';
    case 'DELETE':
      if (state === 'LIVE') no('the deployment is live: set another deployment live first, or delete the app with its deployments (delete_tvc_app_and_deployments)');
      if (state === 'DELETED') no('the deployment is already deleted');
      return 'DELETED';
    case 'RESTORE':
      if (state !== 'DELETED') no(`only a deleted deployment can be restored; this one is ${state}`);
      return event.approved ? 'APPROVED' : 'CREATED';
    case 'DELETE_APP':
      return 'DELETED';
    default:
      return assertNever(event);
  }
}
