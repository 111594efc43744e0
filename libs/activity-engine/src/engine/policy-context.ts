/**
 * The condition context of an activity (protocol notes §7): `activity{type, kind, resource,
 * action, params}`, the keys it touches (`wallet`, `wallets`, `private_key`, `wallet_account`),
 * the transaction it signs (`eth.tx`, `solana.tx`) and `time.now`. Each definition says what it
 * exposes (`policyParams`) and what it touches (`policyFacts`, built from the lookups below);
 * what an activity does not touch is absent, so a policy that reads it gets a MissingField error
 * and does not apply.
 */
import type { TRepositories } from '@latchkey/persistence';
import { ALL_CONDITION_NEEDS, createConditionContext, type TConditionNeeds, type TPolicyFacts, type TPolicyPrivateKey, type TPolicyWallet } from '@latchkey/policy';
import type { TAnyActivityDefinition } from './activity-definition.js';
import type { TPolicyRequest } from './policy-decision.js';

const walletFields = (w: { id: string; name: string; imported: boolean; exported: boolean }): TPolicyWallet => ({ id: w.id, label: w.name, imported: w.imported, exported: w.exported });

async function privateKeyFields(db: TRepositories, organizationId: string, id: string): Promise<TPolicyPrivateKey | undefined> {
  const k = await db.privateKeys.findById(organizationId, id);
  return k ? { id: k.id, label: k.name, imported: k.imported, exported: k.exported, tags: k.tagIds } : undefined;
}

/** `wallet`: the wallet an activity names (absent when there is none by that id). */
export async function walletFacts(db: TRepositories, organizationId: string, walletId: string): Promise<TPolicyFacts> {
  const w = await db.wallets.findById(organizationId, walletId);
  return w ? { wallet: walletFields(w) } : {};
}

/** `wallets`: the wallets an activity names. */
export async function walletsFacts(db: TRepositories, organizationId: string, walletIds: readonly string[]): Promise<TPolicyFacts> {
  return { wallets: (await db.wallets.findByIds(organizationId, [...walletIds])).map(walletFields) };
}

/** `private_key`: the private key an activity names. */
export async function privateKeyFacts(db: TRepositories, organizationId: string, privateKeyId: string): Promise<TPolicyFacts> {
  const k = await privateKeyFields(db, organizationId, privateKeyId);
  return k ? { privateKey: k } : {};
}

/** What `signWith` / `address` resolve to: a wallet account (and its wallet) or a private key (by id or address). */
export async function signerFacts(db: TRepositories, organizationId: string, ref: string): Promise<TPolicyFacts> {
  const account = await db.wallets.findAccountByAddress(organizationId, ref);
  if (account) {
    const wallet = await db.wallets.findById(organizationId, account.walletId);
    return { walletAccount: { address: account.address }, signerAddress: account.address, ...(wallet ? { wallet: walletFields(wallet) } : {}) };
  }
  const byId = await privateKeyFields(db, organizationId, ref);
  if (byId) return { privateKey: byId };
  const key = await db.privateKeys.findByAddress(organizationId, ref);
  const byAddress = key ? await privateKeyFields(db, organizationId, key.id) : undefined;
  // The stored spelling, not the caller's: `eth.tx.from` must not change with the letter case of signWith.
  return key && byAddress ? { privateKey: byAddress, signerAddress: key.matchedAddress } : {};
}

/**
 * The condition context of a policy request: the definition's exposed params and facts, then the
 * language's builder. `needs` (from the conditions about to be evaluated) lets a definition skip
 * lookups nothing reads; a caller that does not know the conditions gets every lookup.
 */
export async function conditionContext(db: TRepositories, req: TPolicyRequest, now: Date, def: TAnyActivityDefinition, needs: TConditionNeeds = ALL_CONDITION_NEEDS): Promise<Record<string, unknown>> {
  const params = req.activity.params;
  const facts = def.policyFacts ? await def.policyFacts(db, req.organizationId, params, needs) : {};
  const exposed = def.policyParams ? def.policyParams(params) : {};
  return createConditionContext({ type: req.activity.type, params: exposed, now, ...facts }) as unknown as Record<string, unknown>;
}
