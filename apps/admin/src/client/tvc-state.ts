/**
 * The label the TVC page gives a deployment, from what the wire shows: deleted (`delete`), the
 * app's live one, approved once the manifest set's threshold of distinct operators signed, else
 * created — the states of the engine's deployment state machine
 * (libs/activity-engine/src/activities/tvc/deployment-state.ts), which alone decides them.
 * Runs in browsers and in Node.
 */
export type TTvcDeploymentLabel = 'CREATED' | 'APPROVED' | 'LIVE' | 'DELETED';

export function tvcDeploymentLabel(
  deployment: { id: string; delete: boolean; manifestSet: { threshold: number }; manifestApprovals: { operator: { id: string } }[] },
  app: { liveDeploymentId?: string | undefined },
): TTvcDeploymentLabel {
  if (deployment.delete) return 'DELETED';
  if (app.liveDeploymentId === deployment.id) return 'LIVE';
  const operators = new Set(deployment.manifestApprovals.map((a) => a.operator.id));
  return operators.size >= deployment.manifestSet.threshold ? 'APPROVED' : 'CREATED';
}
