/**
 * The "app" under test: a tiny wallet service on Turnkey's server SDK. It knows nothing about
 * Latchkey — it is pointed at whatever API base URL it is given, exactly as it would be at
 * https://api.turnkey.com in production.
 */
import { Turnkey } from '@turnkey/sdk-server';
import { generateP256KeyPair } from '@turnkey/crypto';

export interface TApiCredentials {
  apiBaseUrl: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  organizationId: string;
}

export interface TUserWallet {
  subOrganizationId: string;
  walletId: string;
  address: `0x${string}`;
  /** The end user's own API key, the root of their sub-organization. */
  credentials: TApiCredentials;
}

const client = (c: TApiCredentials) => new Turnkey({ apiBaseUrl: c.apiBaseUrl, apiPublicKey: c.apiPublicKey, apiPrivateKey: c.apiPrivateKey, defaultOrganizationId: c.organizationId }).apiClient();

/** Creates a sub-organization for one user, with an API key they hold and an Ethereum wallet. */
export async function createUserWallet(parent: TApiCredentials, userName: string): Promise<TUserWallet> {
  const key = generateP256KeyPair();
  const result = await client(parent).createSubOrganization({
    subOrganizationName: `user ${userName}`,
    rootQuorumThreshold: 1,
    rootUsers: [{ userName, apiKeys: [{ apiKeyName: 'device', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
    wallet: {
      walletName: 'main',
      accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
    },
  });
  const address = result.wallet?.addresses[0];
  if (!result.subOrganizationId || !result.wallet || !address) throw new Error('createSubOrganization returned no wallet');
  return {
    subOrganizationId: result.subOrganizationId,
    walletId: result.wallet.walletId,
    address: address as `0x${string}`,
    credentials: { apiBaseUrl: parent.apiBaseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, organizationId: result.subOrganizationId },
  };
}

/** Signs an unsigned, serialized Ethereum transaction (0x…) with the user's wallet. */
export async function signTransaction(user: TUserWallet, unsignedTransaction: `0x${string}`): Promise<`0x${string}`> {
  const { signedTransaction } = await client(user.credentials).signTransaction({ signWith: user.address, unsignedTransaction: unsignedTransaction.slice(2), type: 'TRANSACTION_TYPE_ETHEREUM' });
  return `0x${signedTransaction.replace(/^0x/, '')}`;
}
