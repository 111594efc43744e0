/**
 * The condition context of an activity (protocol notes §7): `activity{type, kind, resource,
 * action, params}`, the keys it touches (`wallet`, `wallets`, `private_key`, `wallet_account`),
 * the transaction it signs (`eth.tx`, `solana.tx`) and `time.now`. What an activity does not
 * touch is absent, so a policy that reads it gets a MissingField error and does not apply.
 */
import type { TRepositories } from '@latchkey/persistence';
import { createConditionContext, type TConditionContextInput, type TPolicyPrivateKey, type TPolicyWallet } from '@latchkey/policy';
import type { TPolicyRequest } from './policy-decision.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

const walletFields = (w: { id: string; name: string; imported: boolean; exported: boolean }): TPolicyWallet => ({ id: w.id, label: w.name, imported: w.imported, exported: w.exported });

async function privateKeyFields(db: TRepositories, organizationId: string, id: string): Promise<TPolicyPrivateKey | undefined> {
  const k = await db.privateKeys.findById(organizationId, id);
  return k ? { id: k.id, label: k.name, imported: k.imported, exported: k.exported, tags: k.tagIds } : undefined;
}

/** What `signWith` / `address` resolve to: a wallet account (and its wallet) or a private key. */
async function signerFacts(db: TRepositories, organizationId: string, ref: string): Promise<Partial<TConditionContextInput>> {
  const account = await db.wallets.findAccountByAddress(organizationId, ref);
  if (account) {
    const wallet = await db.wallets.findById(organizationId, account.walletId);
    return { walletAccount: { address: account.address }, signerAddress: account.address, ...(wallet ? { wallet: walletFields(wallet) } : {}) };
  }
  const byId = await privateKeyFields(db, organizationId, ref);
  if (byId) return { privateKey: byId };
  const key = await db.privateKeys.findByAddress(organizationId, ref);
  const byAddress = key ? await privateKeyFields(db, organizationId, key.id) : undefined;
  return byAddress ? { privateKey: byAddress, signerAddress: ref } : {};
}

/** The condition context of a policy request: the database facts it names, then the language's builder. */
export async function conditionContext(db: TRepositories, req: TPolicyRequest, now: Date): Promise<Record<string, unknown>> {
  const p = (req.activity.params ?? {}) as Record<string, unknown>;
  const org = req.organizationId;
  const input: TConditionContextInput = { type: req.activity.type, intent: p, now };
  const walletId = str(p['walletId']);
  if (walletId) {
    const w = await db.wallets.findById(org, walletId);
    if (w) input.wallet = walletFields(w);
  }
  if (Array.isArray(p['walletIds'])) {
    const rows = await db.wallets.findByIds(org, (p['walletIds'] as unknown[]).filter((x): x is string => typeof x === 'string'));
    input.wallets = rows.map(walletFields);
  }
  const privateKeyId = str(p['privateKeyId']);
  if (privateKeyId) {
    const k = await privateKeyFields(db, org, privateKeyId);
    if (k) input.privateKey = k;
  }
  const signer = str(p['signWith']) ?? (req.activity.kind === 'EXPORT_WALLET_ACCOUNT' ? str(p['address']) : undefined);
  if (signer) Object.assign(input, await signerFacts(db, org, signer));
  return createConditionContext(input) as unknown as Record<string, unknown>;
}
