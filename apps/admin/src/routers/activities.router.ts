/**
 * Activities: the list (with the public API's filters, plus the submitting user's; a
 * sub-organization is read by naming it as `organizationId`), one activity, the policy evaluations that
 * decided it, Approve / Reject as votes of the signed-in user, and `live`: new and changed
 * activities pushed over SSE while the dashboard is open.
 */
import {
  APPROVE_ACTIVITY_ACTIVITY,
  REJECT_ACTIVITY_ACTIVITY,
  ZGetActivityRequestSchema,
  ZGetPolicyEvaluationsRequestSchema,
  ZListActivitiesRequestSchema,
  ZVoteIntentSchema,
  type TGetActivityResponse,
  type TListActivitiesResponse,
  type TPolicyOutcomeRecord,
} from '@latchkey/domain';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router } from '../trpc/init.js';
import { liveActivities } from './live-activities.js';

export interface TPolicyEvaluationView {
  id: string;
  activityId: string;
  voteId: string;
  outcome: string;
  policyEvaluations: TPolicyOutcomeRecord[];
  createdAt: { seconds: string; nanos: string };
}

export const activitiesRouter = router({
  list: engineQuery<TListActivitiesResponse, typeof ZListActivitiesRequestSchema>('list_activities', ZListActivitiesRequestSchema),
  get: engineQuery<TGetActivityResponse, typeof ZGetActivityRequestSchema>('get_activity', ZGetActivityRequestSchema),
  evaluations: engineQuery<{ policyEvaluations: TPolicyEvaluationView[] }, typeof ZGetPolicyEvaluationsRequestSchema>('get_policy_evaluations', ZGetPolicyEvaluationsRequestSchema),
  approve: engineSubmit(APPROVE_ACTIVITY_ACTIVITY, ZVoteIntentSchema),
  reject: engineSubmit(REJECT_ACTIVITY_ACTIVITY, ZVoteIntentSchema),
  live: liveActivities,
});
