/** Database rows → wire objects, byte-exact with Turnkey's field names. */
import { toTimestamp, type TActivity, type TActivityStatus, type TPrivateKey, type TTag, type TWallet, type TWalletAccount, type TWalletDetails } from '@latchkey/domain';
import type { Activity, PrivateKeyTag, TPrivateKeyRecord, Wallet, WalletAccount } from '@latchkey/persistence';
import { isVotable } from './status-machine.js';

export function activityToWire(a: Activity): TActivity {
  const status = a.status as TActivityStatus;
  return {
    id: a.id,
    organizationId: a.organizationId,
    status,
    type: a.type,
    intent: a.intent as Record<string, unknown>,
    result: a.result as Record<string, unknown>,
    votes: [],
    fingerprint: a.fingerprint,
    canApprove: isVotable(status),
    canReject: isVotable(status),
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    ...(a.failure ? { failure: a.failure as TActivity['failure'] } : {}),
  } as TActivity;
}

export function walletToWire(w: Wallet): TWallet {
  return {
    walletId: w.id,
    walletName: w.name,
    createdAt: toTimestamp(w.createdAt),
    updatedAt: toTimestamp(w.updatedAt),
    exported: w.exported,
    imported: w.imported,
  };
}

export function walletAccountToWire(a: WalletAccount, details?: TWalletDetails): TWalletAccount {
  return {
    walletAccountId: a.id,
    organizationId: a.organizationId,
    walletId: a.walletId,
    curve: a.curve as TWalletAccount['curve'],
    pathFormat: a.pathFormat as TWalletAccount['pathFormat'],
    path: a.path,
    addressFormat: a.addressFormat as TWalletAccount['addressFormat'],
    address: a.address,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    publicKey: a.publicKey,
    ...(a.name ? { name: a.name } : {}),
    ...(details ? { walletDetails: details } : {}),
  } as TWalletAccount;
}

export function privateKeyToWire(k: TPrivateKeyRecord): TPrivateKey {
  return {
    privateKeyId: k.id,
    publicKey: k.publicKey,
    privateKeyName: k.name,
    curve: k.curve as TPrivateKey['curve'],
    addresses: k.addresses.map((a) => ({ format: a.format as NonNullable<TPrivateKey['addresses'][number]['format']>, address: a.address })),
    privateKeyTags: k.tagIds,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    exported: k.exported,
    imported: k.imported,
  };
}

export function privateKeyTagToWire(t: PrivateKeyTag): TTag {
  return { tagId: t.id, tagName: t.name, tagType: 'TAG_TYPE_PRIVATE_KEY', createdAt: toTimestamp(t.createdAt), updatedAt: toTimestamp(t.updatedAt) };
}
