/**
 * Wire schemas of IP allowlists (issue 16 §2): set_ip_allowlist, remove_ip_allowlist and the
 * get_ip_allowlist query, with the names of `@turnkey/sdk-types` 1.10's `v1…IpAllowlist…` types.
 * An allowlist belongs to an organization (`publicKey` absent) or to one API key of it; its rules
 * are CIDR blocks, parsed here by the same parser the server matches client addresses with.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema } from '../common.js';
import { parseCidr } from '../cidr.js';

/** Rules one allowlist may hold: enough for offices, VPNs and cloud egress ranges, bounded per request. */
export const MAX_IP_ALLOWLIST_RULES = 100;

export const IP_ALLOWLIST_EVALUATION_ERROR_BEHAVIOURS = ['ALLOW', 'DENY'] as const;
export type TIpAllowlistEvaluationErrorBehaviour = (typeof IP_ALLOWLIST_EVALUATION_ERROR_BEHAVIOURS)[number];

const publicKey = z
  .string()
  .trim()
  .min(1, 'must not be empty; omit it for the organization-level allowlist')
  .max(256, 'must be at most 256 characters')
  .regex(/^[0-9a-fA-F]+$/, 'must be an API key public key in hex');

/** `v1IpAllowlistIntentRule`: the CIDR is kept as written (trimmed), once it parses. */
export const ZIpAllowlistIntentRuleSchema = z.object({
  cidr: z
    .string()
    .trim()
    .max(64, 'must be at most 64 characters')
    .superRefine((s, ctx) => {
      const parsed = parseCidr(s);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    }),
  label: z.string().max(256, 'must be at most 256 characters').optional(),
});
export type TIpAllowlistIntentRule = z.output<typeof ZIpAllowlistIntentRuleSchema>;

/**
 * `v1SetIpAllowlistIntent`. A field given replaces the stored one; a field omitted keeps it (on
 * a new allowlist: enabled, no rules, DENY on evaluation errors).
 */
export const ZSetIpAllowlistIntentSchema = z.object({
  publicKey: publicKey.optional(),
  enabled: z.boolean().optional(),
  rules: z.array(ZIpAllowlistIntentRuleSchema).max(MAX_IP_ALLOWLIST_RULES, `must have at most ${MAX_IP_ALLOWLIST_RULES} rules`).optional(),
  onEvaluationError: z.enum(IP_ALLOWLIST_EVALUATION_ERROR_BEHAVIOURS, { error: 'must be ALLOW or DENY' }).optional(),
});
export type TSetIpAllowlistIntent = z.output<typeof ZSetIpAllowlistIntentSchema>;

/** `v1RemoveIpAllowlistIntent`. */
export const ZRemoveIpAllowlistIntentSchema = z.object({ publicKey: publicKey.optional() });
export type TRemoveIpAllowlistIntent = z.output<typeof ZRemoveIpAllowlistIntentSchema>;

/** `v1GetIpAllowlistRequest`. */
export const ZGetIpAllowlistRequestSchema = z.object({ organizationId: ZIdentifierSchema, publicKey: publicKey.optional() });
export type TGetIpAllowlistRequest = z.output<typeof ZGetIpAllowlistRequestSchema>;

/** `v1IpAllowlistRule`: `createdAt` in milliseconds since the epoch, as a string. */
export interface TIpAllowlistRuleWire {
  cidr: string;
  label?: string;
  createdAt?: string;
}

/** `v1IpAllowlist`: `enabled` only on the organization-level list, `publicKey` only on a key's. */
export interface TIpAllowlistWire {
  organizationId: string;
  rules: TIpAllowlistRuleWire[];
  publicKey?: string;
  enabled?: boolean;
  onEvaluationError?: string;
}

/** Wire names of `set_ip_allowlist` (`v1SetIpAllowlistResult` is empty). */
export const SET_IP_ALLOWLIST_ACTIVITY = defineActivityWire('set_ip_allowlist', [
  { type: 'ACTIVITY_TYPE_SET_IP_ALLOWLIST', intentKey: 'setIpAllowlistIntent', resultKey: 'setIpAllowlistResult' },
]);

/** Wire names of `remove_ip_allowlist` (`v1RemoveIpAllowlistResult` is empty). */
export const REMOVE_IP_ALLOWLIST_ACTIVITY = defineActivityWire('remove_ip_allowlist', [
  { type: 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST', intentKey: 'removeIpAllowlistIntent', resultKey: 'removeIpAllowlistResult' },
]);
