import { describe, expect, it } from 'vitest';
import { ZCreateWalletIntentSchema, ZCreateWalletRequestSchema } from './create-wallet.js';

const account = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
};

describe('ZCreateWalletIntentSchema', () => {
  it('accepts a minimal intent and defaults mnemonicLength to 12', () => {
    expect(ZCreateWalletIntentSchema.parse({ walletName: 'main', accounts: [account] })).toEqual({
      walletName: 'main',
      accounts: [account],
      mnemonicLength: 12,
    });
  });

  it('accepts an empty accounts list, an account name and every allowed length', () => {
    for (const mnemonicLength of [12, 15, 18, 21, 24]) {
      expect(ZCreateWalletIntentSchema.parse({ walletName: 'w', accounts: [], mnemonicLength }).mnemonicLength).toBe(
        mnemonicLength,
      );
    }
    expect(ZCreateWalletIntentSchema.parse({ walletName: 'w', accounts: [{ ...account, name: 'a' }] }).accounts[0]?.name).toBe(
      'a',
    );
  });

  it.each([
    ['empty walletName', { walletName: '', accounts: [] }],
    ['too long walletName', { walletName: 'x'.repeat(257), accounts: [] }],
    ['missing accounts', { walletName: 'w' }],
    ['101 accounts', { walletName: 'w', accounts: Array.from({ length: 101 }, () => account) }],
    ['mnemonicLength 13', { walletName: 'w', accounts: [], mnemonicLength: 13 }],
    ['mnemonicLength as a string', { walletName: 'w', accounts: [], mnemonicLength: '12' }],
    ['unknown curve', { walletName: 'w', accounts: [{ ...account, curve: 'CURVE_X' }] }],
    ['unknown path format', { walletName: 'w', accounts: [{ ...account, pathFormat: 'PATH_FORMAT_X' }] }],
    ['unknown address format', { walletName: 'w', accounts: [{ ...account, addressFormat: 'ADDRESS_FORMAT_X' }] }],
    ['missing path', { walletName: 'w', accounts: [{ ...account, path: undefined }] }],
  ])('rejects %s', (_name, intent) => {
    expect(ZCreateWalletIntentSchema.safeParse(intent).success).toBe(false);
  });

  it('accepts exactly 100 accounts', () => {
    const accounts = Array.from({ length: 100 }, () => account);
    expect(ZCreateWalletIntentSchema.parse({ walletName: 'w', accounts }).accounts).toHaveLength(100);
  });

  it('names the failing field in the issue path', () => {
    const r = ZCreateWalletIntentSchema.safeParse({ walletName: 'w', accounts: [{ ...account, curve: 1 }] });
    expect(r.error?.issues[0]?.path).toEqual(['accounts', 0, 'curve']);
  });
});

describe('ZCreateWalletRequestSchema', () => {
  const body = {
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: '1700000000000',
    organizationId: 'org-1',
    parameters: { walletName: 'w', accounts: [account] },
  };

  it('parses the envelope and the intent together', () => {
    expect(ZCreateWalletRequestSchema.parse(body).parameters.mnemonicLength).toBe(12);
  });

  it('rejects another activity type and ignores unknown top-level keys', () => {
    expect(ZCreateWalletRequestSchema.safeParse({ ...body, type: 'ACTIVITY_TYPE_CREATE_USERS_V4' }).success).toBe(false);
    expect(ZCreateWalletRequestSchema.safeParse({ ...body, extra: true }).success).toBe(true);
  });
});
