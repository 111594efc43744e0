/**
 * @latchkey/policy — the policy language: parse `consensus`/`condition` expressions when a policy is
 * written, print them canonically, and evaluate them over a request's context. Pure: no I/O.
 */
export {
  LAMBDA_METHODS,
  RESERVED_WORDS,
  childrenOf,
  exprDepth,
  type TCompareOp,
  type TExpr,
  type TExprKind,
  type TLambdaMethod,
  type TLogicalOp,
} from './ast.js';
export { PolicyEvaluationError, PolicyParseError, type TPolicyEvaluationErrorKind } from './errors.js';
export {
  MAX_INT_LITERAL,
  MAX_POLICY_EXPRESSION_DEPTH,
  MAX_POLICY_EXPRESSION_LENGTH,
  MAX_POLICY_EXPRESSION_NESTING,
  MIN_INT_LITERAL,
  isEmptyExpression,
  parsePolicyExpression,
} from './parser.js';
export { printPolicyExpression } from './printer.js';
export { MAX_EVALUATION_STEPS, evaluatePolicyExpression, type TEvaluationContext, type TEvaluationResult } from './evaluator.js';
export { PolicyTimestamp, parseTimestamp, timestampOf } from './timestamp.js';
export {
  ALL_CONDITION_NEEDS,
  activityContext,
  conditionNeeds,
  createConditionContext,
  exposeParams,
  ethTxContext,
  solanaTxContext,
  type TConditionContext,
  type TConditionContextInput,
  type TConditionNeeds,
  type TConsensusContext,
  type TEthTxContext,
  type TPolicyActivity,
  type TPolicyCredential,
  type TPolicyFacts,
  type TPolicyPrivateKey,
  type TPolicyUser,
  type TPolicyWallet,
  type TPolicyWalletAccount,
  type TSolanaAccountContext,
  type TSolanaInstructionContext,
  type TSolanaLookupReferenceContext,
  type TSolanaParsedInstructionContext,
  type TSolanaTxContext,
} from './context.js';
export {
  ACTIVITY_POLICY_TABLE,
  KINDS_WITHOUT_DOCUMENTED_RESOURCE,
  ROOT_QUORUM_ACTIVITY_TYPES,
  activityKind,
  activityPolicyEntry,
  type TActivityPolicyEntry,
  type TPolicyAction,
  type TPolicyResource,
} from './activity-table.js';
