/**
 * What an activity kind declares — the only declaration of a kind: its wire names (path, every
 * accepted version with its intent and result keys, from its `@latchkey/domain` schema file), its
 * parameter schema, who may submit it, an optional stateless validation (400 before anything is
 * written), what policies may read of it (`policyParams`, `policyFacts`), and its handler. Its
 * policy resource and action are not declared here: the registry looks them up once in the
 * policy table (`@latchkey/policy`), so the two cannot disagree.
 */
import type { TKeyVault } from '@latchkey/crypto';
import type { TRepositories, TStatementRows } from '@latchkey/persistence';
import type { AppError, TActivityVersion, TActivityWire, TVoteIntent } from '@latchkey/domain';
import type { TConditionNeeds, TPolicyFacts } from '@latchkey/policy';
import type { z } from 'zod';
import type { TPrincipal } from './principal.js';
import type { TEngineServices } from './services.js';
import type { TAuthCache } from './auth-cache.js';

export type { TActivityVersion };

export interface TActivityContext {
  /** Repositories bound to the activity's transaction: everything written commits together. */
  tx: TRepositories;
  vault: TKeyVault;
  organizationId: string;
  activityId: string;
  principal: TPrincipal;
  now: Date;
  /** Mail, SMS, OIDC verification and the server's own keys. */
  services: TEngineServices;
  /**
   * Repositories outside the activity's transaction: for the few writes that must survive the
   * activity failing (an OTP attempt counter). Everything else goes through `tx`.
   */
  detached: TRepositories;
  /**
   * Read-only activities only (outside any transaction): the cached lookup of signing keys, so a
   * signature reads no key from the database once warm. Absent where reads must see the
   * transaction (an approved activity runs inside its vote's).
   */
  signers?: Pick<TAuthCache, 'signer'>;
  /**
   * The client address of the request that runs the activity (the submission's, or the deciding
   * vote's), as the IP allowlists see it; absent for an in-process caller.
   */
  clientAddress?: string | undefined;
}

/** Who, besides the target organization's own users, may submit an activity kind. */
export interface TActivityAccess {
  /**
   * A parent organization's credential may submit it with `organizationId` set to one of its
   * sub-organizations: the login activities an app's backend runs for its end users.
   */
  parentMayAct?: boolean;
  /**
   * A credential that lives in a sub-organization may submit it aimed at the parent; the activity
   * then runs in that sub-organization (`loginWithPasskey` sends stamp_login to the parent).
   */
  loginViaParent?: boolean;
  /** Allowed for any authenticated user acting on itself, without a policy (one's own login). */
  selfService?: boolean;
  /** Accepts an `X-Stamp-Attested` signer (a key vouched for by an OTP or OIDC token). */
  attested?: boolean;
}

/**
 * What a handler's refusal (an AppError) becomes. `record` (the default): a FAILED activity,
 * answered with HTTP 200 like any activity. `reject`: an HTTP 4xx and no activity row at all —
 * for the login flows, where a wrong code or a forged token is the caller's error and must leave
 * nothing behind (attempt counters excepted).
 */
export type TFailureMode = 'record' | 'reject';

export interface TActivityDefinition<TParams = unknown, TResult extends Record<string, unknown> = Record<string, unknown>> extends TActivityWire {
  access?: TActivityAccess;
  onFailure?: TFailureMode;
  /**
   * The handler only reads (signing): it runs outside any transaction, on the plain-SQL store, and
   * the finished activity and its outbox event are written by one statement — no interactive
   * transaction on the hot path (docs/BENCHMARKS.md). `ctx.tx` is then not transactional: a
   * read-only handler must not write through it.
   */
  readOnly?: boolean;
  params: z.ZodType<TParams>;
  /**
   * Checks that need no database (paths, curve/format pairs). Throws AppError (400); runs before
   * the activity is recorded.
   */
  validate?(params: TParams): void;
  /**
   * Checks that wait on the outside world but not on the database (a webhook URL's name
   * resolution). Throws AppError (400); runs before the activity is recorded, so no transaction
   * is held open while it waits.
   */
  precheck?(params: TParams, services: TEngineServices): Promise<void>;
  /**
   * `activity.params` as policies see it: the request fields Turnkey exposes for this kind
   * (`exposeParams` of `@latchkey/policy`). Absent: none.
   */
  policyParams?(params: TParams): Record<string, unknown>;
  /**
   * What the activity touches, for the policy condition (`wallet`, `wallets`, `private_key`,
   * `wallet_account`, the transaction behind `eth.tx` / `solana.tx`), built from the lookups in
   * `engine/policy-context.ts`. Read only when a policy's condition is evaluated. `needs` says
   * which costly lookups the conditions about to be evaluated read (a smart contract interface for
   * the decoded call); a lookup nothing reads is skipped.
   */
  policyFacts?(db: TRepositories, organizationId: string, params: TParams, needs: TConditionNeeds): Promise<TPolicyFacts>;
  /**
   * Performs the activity inside its transaction. A thrown AppError makes the activity FAILED
   * (with that error as `failure`) and rolls back its effects.
   */
  handle(ctx: TActivityContext, params: TParams): Promise<TResult>;
  /**
   * `handle`'s work with its effects staged instead of written: the result, and the new rows the
   * activity's own statement inserts (create_wallet: the wallet and its accounts). With it, a
   * submission the policies allow outright, with no policy evaluation to record, is written like a
   * signature — one statement outside any transaction, the rows with the activity, its outbox
   * event and its audit link or none of them — and makes no idempotency lookup first (a repeat
   * inserts nothing and answers the original). Everything else (an approval deciding the activity,
   * a recorded evaluation) runs `handle` in a transaction, so the two must agree. `ctx.tx` is not
   * transactional here: `stage` must not write through it. A thrown AppError makes the activity
   * FAILED, as with `handle`.
   */
  stage?(ctx: TActivityContext, params: TParams): Promise<{ result: TResult; rows: TStatementRows }>;
  /**
   * With `stage`: the refusal a unique violation of the staged rows stands for (create_wallet: the
   * name is taken). The activity is then recorded FAILED with it, as `handle`'s would be.
   */
  stagedConflict?(params: TParams): AppError;
}

/** Erases the parameter type for the registry (each definition checks its own params). */
export type TAnyActivityDefinition = TActivityDefinition<any, Record<string, unknown>>;

/** A definition as the registry serves it: with its policy resource and action from the policy table. */
export type TRegisteredActivity = TAnyActivityDefinition & { resource: string; action: string };

/**
 * approve_activity / reject_activity: a vote on a waiting activity (found by fingerprint) rather
 * than an activity of its own. The submission pipeline checks its envelope, type, timestamp and
 * organization like any other kind's, then hands the vote to consensus, which locks the voted-on
 * activity, records the vote and, once the policies allow, runs that activity's handler.
 */
export interface TVoteDefinition extends TActivityWire {
  vote: 'VOTE_SELECTION_APPROVED' | 'VOTE_SELECTION_REJECTED';
  params: z.ZodType<TVoteIntent>;
}

/** Anything the submit path serves. */
export type TSubmittable = TRegisteredActivity | TVoteDefinition;

export const isVote = (d: TSubmittable): d is TVoteDefinition => 'vote' in d;

/**
 * `tx` with its `notifyChange` also recorded in `changes`, so that after commit the engine can
 * drop this process's stale cache entries at once (`onCommitted`); other processes hear the
 * change feed a moment later. Used wherever a handler runs: a submission and a deciding vote.
 */
export function announcing(tx: TRepositories, changes: string[]): TRepositories {
  return {
    ...tx,
    notifyChange: async (topic, key) => {
      changes.push(`${topic}:${key}`);
      await tx.notifyChange(topic, key);
    },
  };
}
