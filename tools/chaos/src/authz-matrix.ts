/**
 * R2 authorization matrix (issue 17): every public route × every way a caller must be refused →
 * 0 successes (no 2xx) and no 5xx. The callers, each set up for real on one Latchkey:
 *
 * - no stamp; a bad signature (the root key's public key, signed by another key);
 * - another organization's key (a second root organization, made with `latchkey org create`);
 * - a sibling sub-organization's key on a sub-organization;
 * - an expired key (expirationSeconds 1, used after it lapsed) and a deleted key;
 * - a deleted user's key;
 * - a stale timestamp (two hours old; activities only: a query has none);
 * - a sub-organization's user on the parent (except where Turnkey allows it: routes with
 *   `loginViaParent`, which then run in the sub-organization);
 * - the parent's root user on a sub-organization, on activities that do not allow it
 *   (`parentMayAct`); a parent may read its sub-organizations, so queries are not in this row.
 *
 * Each request's body is generated from the route's schema and kept only when the schema accepts
 * it (up to 30 tries), so a refusal cannot be a validation error standing in for the
 * authorization check; the report says how many routes got such a body. Before the matrix, each
 * key is shown to work (whoami) and the expired key to have worked, so the refusals are the
 * cases' doing, not broken set-up.
 */
import fc from 'fast-check';
import { call, perform } from './support/activities.js';
import { arbitraryOf } from './support/arbitraries.js';
import { hasUnstorableString } from './support/mutate.js';
import { createOtherRootOrganization, createStamper, generateApiKeyPair, withTarget, type TStamper, type TTarget } from './support/platform.js';
import { log, since, type TProofResult } from './support/report.js';
import { publicRoutes, type TRoute } from './support/routes.js';

interface TCaller {
  name: string;
  /** Which organization the request names. */
  target: string;
  stamper?: TStamper;
  /** Whether this caller applies to the route (false: not a refusal Turnkey makes there). */
  appliesTo(route: TRoute): boolean;
  stale?: boolean;
}

const API_KEY = (publicKey: string, apiKeyName: string, expirationSeconds?: string) => ({ apiKeyName, publicKey, curveType: 'API_KEY_CURVE_P256', ...(expirationSeconds ? { expirationSeconds } : {}) });

async function createSubOrganization(t: TTarget, name: string): Promise<{ id: string; stamper: TStamper }> {
  const key = generateApiKeyPair();
  const r = await perform(t, t.rootStamper, 'create_sub_organization', 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7', {
    subOrganizationName: name,
    rootUsers: [{ userName: `${name}-root`, apiKeys: [API_KEY(key.publicKey, `${name}-key`)], authenticators: [], oauthProviders: [] }],
    rootQuorumThreshold: 1,
  });
  return { id: r['subOrganizationId'] as string, stamper: createStamper(key) };
}

/** A body for `route` aimed at `organizationId` that the route's schema accepts, if one is found. */
function bodyFor(route: TRoute, organizationId: string, seed: number, staleMs = 0): { body: Record<string, unknown>; valid: boolean } {
  const candidates = fc.sample(arbitraryOf(route.generated), { numRuns: 30, seed });
  let last: Record<string, unknown> = {};
  for (const g of candidates) {
    const body =
      route.kind === 'submit'
        ? { type: route.types[0], timestampMs: String(Date.now() - staleMs), organizationId, parameters: g }
        : { ...(g !== null && typeof g === 'object' && !Array.isArray(g) ? g : {}), organizationId };
    last = body;
    if (!hasUnstorableString(body) && route.body.safeParse(body).success) return { body, valid: true };
  }
  return { body: last, valid: false };
}

export async function runAuthzMatrix(): Promise<TProofResult> {
  const t0 = Date.now();
  const failures: string[] = [];
  let summary = '';
  await withTarget({}, async (t) => {
    const routes = publicRoutes();
    log(`R2 authorization matrix: setting up callers`);
    const rootUserId = ((await call(t, t.rootStamper, 'query', 'whoami', { organizationId: t.organizationId })) as { userId: string }).userId;
    const sub1 = await createSubOrganization(t, `chaos-sub-1-${Date.now()}`);
    const sub2 = await createSubOrganization(t, `chaos-sub-2-${Date.now()}`);
    const other = await createOtherRootOrganization(t, `chaos-other-${Date.now()}`);
    const otherStamper = createStamper(other.key);

    const expiring = generateApiKeyPair();
    const deletedKey = generateApiKeyPair();
    const created = await perform(t, t.rootStamper, 'create_api_keys', 'ACTIVITY_TYPE_CREATE_API_KEYS_V2', {
      userId: rootUserId,
      apiKeys: [API_KEY(expiring.publicKey, `chaos-expiring-${Date.now()}`, '2'), API_KEY(deletedKey.publicKey, `chaos-deleted-${Date.now()}`)],
    });
    const [, deletedKeyId] = created['apiKeyIds'] as string[];
    const deletedUserKey = generateApiKeyPair();
    const users = await perform(t, t.rootStamper, 'create_users', 'ACTIVITY_TYPE_CREATE_USERS_V3', {
      users: [{ userName: `chaos-doomed-${Date.now()}`, apiKeys: [API_KEY(deletedUserKey.publicKey, 'doomed-key')], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    const doomedUserId = (users['userIds'] as string[])[0]!;

    // Controls: every key works before it is made unusable (or for the live ones, at all).
    const controls: [string, TStamper, string][] = [
      ['sub-organization 1 root', sub1.stamper, sub1.id],
      ['sub-organization 2 root', sub2.stamper, sub2.id],
      ['other root organization', otherStamper, other.organizationId],
      ['expiring key (before it expires)', createStamper(expiring), t.organizationId],
      ['key to be deleted', createStamper(deletedKey), t.organizationId],
      ["user to be deleted", createStamper(deletedUserKey), t.organizationId],
    ];
    for (const [what, stamper, org] of controls) await call(t, stamper, 'query', 'whoami', { organizationId: org }).catch((e: Error) => failures.push(`control failed — ${what} cannot call whoami: ${e.message}`));
    await perform(t, t.rootStamper, 'delete_api_keys', 'ACTIVITY_TYPE_DELETE_API_KEYS', { userId: rootUserId, apiKeyIds: [deletedKeyId] });
    await perform(t, t.rootStamper, 'delete_users', 'ACTIVITY_TYPE_DELETE_USERS', { userIds: [doomedUserId] });
    await new Promise((r) => setTimeout(r, 3_000)); // the expiring key lapses (2 s)

    const badSignature = createStamper(generateApiKeyPair(), t.root.publicKey);
    const callers: TCaller[] = [
      { name: 'no stamp', target: t.organizationId, appliesTo: () => true },
      { name: 'bad signature', target: t.organizationId, stamper: badSignature, appliesTo: () => true },
      { name: "another organization's key", target: t.organizationId, stamper: otherStamper, appliesTo: () => true },
      { name: "a sibling sub-organization's key", target: sub1.id, stamper: sub2.stamper, appliesTo: () => true },
      { name: 'expired key', target: t.organizationId, stamper: createStamper(expiring), appliesTo: () => true },
      { name: 'deleted key', target: t.organizationId, stamper: createStamper(deletedKey), appliesTo: () => true },
      { name: 'deleted user', target: t.organizationId, stamper: createStamper(deletedUserKey), appliesTo: () => true },
      { name: 'stale timestamp (2 h)', target: t.organizationId, stamper: t.rootStamper, stale: true, appliesTo: (r) => r.kind === 'submit' },
      { name: 'sub-organization user on the parent', target: t.organizationId, stamper: sub1.stamper, appliesTo: (r) => !r.loginViaParent },
      { name: 'parent user on a sub-organization', target: sub1.id, stamper: t.rootStamper, appliesTo: (r) => r.kind === 'submit' && !r.parentMayAct },
    ];

    log(`R2: ${routes.length} routes × ${callers.length} callers`);
    const rows: { caller: string; sent: number; statuses: Map<number, number> }[] = [];
    let validBodies = 0;
    let sent = 0;
    for (const caller of callers) {
      const statuses = new Map<number, number>();
      const examples: string[] = [];
      let n = 0;
      await Promise.all(
        [0, 1, 2, 3].map(async (lane) => {
          for (let i = lane; i < routes.length; i += 4) {
            const route = routes[i]!;
            if (!caller.appliesTo(route)) continue;
            const { body, valid } = bodyFor(route, caller.target, i + 1, caller.stale ? 2 * 3600_000 : 0);
            if (caller.name === 'no stamp' && valid) validBodies++;
            const text = JSON.stringify(body);
            const a = await t.http.post(route.url, text, caller.stamper ? { 'X-Stamp': caller.stamper.stamp(text) } : {});
            n++;
            if (!statuses.has(a.status)) examples.push(`${a.status} ${route.name}: ${a.text.slice(0, 200)}`);
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            if (a.status === 0 || (a.status >= 200 && a.status < 300) || a.status >= 500) {
              failures.push(`${caller.name} → POST ${route.url} answered ${a.status || a.error}: ${a.text.slice(0, 240)} (body ${text.slice(0, 300)})`);
            }
          }
        }),
      );
      sent += n;
      rows.push({ caller: caller.name, sent: n, statuses });
      log(`  ${caller.name}: ${n} requests, ${[...statuses].sort((a, b) => a[0] - b[0]).map(([s, k]) => `${s}×${k}`).join(' ')}`);
      if (process.env['CHAOS_VERBOSE']) for (const e of examples) log(`    e.g. ${e}`);
    }
    summary = `${sent} requests, ${routes.length} routes × ${callers.length} callers, ${failures.length} successes or 5xx; ${validBodies}/${routes.length} routes with a schema-valid body`;
  });
  return { id: 'R2', title: 'authorization matrix', ok: failures.length === 0, seconds: since(t0), summary, failures };
}
