/**
 * What an activity kind declares: its path, every accepted version of its type with the matching
 * intent and result keys, its policy resource and action, its parameter schema, an optional
 * stateless validation (400 before anything is written), and its handler.
 */
import type { TKeyVault } from '@latchkey/crypto';
import type { TRepositories } from '@latchkey/persistence';
import type { z } from 'zod';
import type { TPrincipal } from './principal.js';

export interface TActivityVersion {
  type: string;
  intentKey: string;
  resultKey: string;
}

export interface TActivityContext {
  /** Repositories bound to the activity's transaction: everything written commits together. */
  tx: TRepositories;
  vault: TKeyVault;
  organizationId: string;
  activityId: string;
  principal: TPrincipal;
  now: Date;
}

export interface TActivityDefinition<TParams = unknown, TResult extends Record<string, unknown> = Record<string, unknown>> {
  /** The path segment after `/public/v1/submit/`. */
  path: string;
  versions: readonly [TActivityVersion, ...TActivityVersion[]];
  /** `activity.resource` and `activity.action` as the policy language names them. */
  resource: string;
  action: string;
  params: z.ZodType<TParams>;
  /**
   * Checks that need no database (paths, curve/format pairs). Throws AppError (400); runs before
   * the activity is recorded.
   */
  validate?(params: TParams): void;
  /**
   * Performs the activity inside its transaction. A thrown AppError makes the activity FAILED
   * (with that error as `failure`) and rolls back its effects.
   */
  handle(ctx: TActivityContext, params: TParams): Promise<TResult>;
}

/** Erases the parameter type for the registry (each definition checks its own params). */
export type TAnyActivityDefinition = TActivityDefinition<any, Record<string, unknown>>;

/** `ACTIVITY_TYPE_CREATE_USERS_V4` → `CREATE_USERS` (the policy language's `activity.kind`). */
export function activityKind(type: string): string {
  return type.replace(/^ACTIVITY_TYPE_/, '').replace(/_V\d+$/, '');
}
