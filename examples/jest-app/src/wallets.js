/**
 * The "app" under test (the same as examples/vitest-app, in CommonJS): a tiny wallet service on
 * Turnkey's server SDK, pointed at whatever API base URL it is given.
 */
const { Turnkey } = require('@turnkey/sdk-server');
const { generateP256KeyPair } = require('@turnkey/crypto');

/** @typedef {{ apiBaseUrl: string, apiPublicKey: string, apiPrivateKey: string, organizationId: string }} TApiCredentials */

/** @param {TApiCredentials} c */
const client = (c) => new Turnkey({ apiBaseUrl: c.apiBaseUrl, apiPublicKey: c.apiPublicKey, apiPrivateKey: c.apiPrivateKey, defaultOrganizationId: c.organizationId }).apiClient();

/**
 * Creates a sub-organization for one user, with an API key they hold and an Ethereum wallet.
 * @param {TApiCredentials} parent
 * @param {string} userName
 */
async function createUserWallet(parent, userName) {
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
  const address = result.wallet && result.wallet.addresses[0];
  if (!result.subOrganizationId || !address) throw new Error('createSubOrganization returned no wallet');
  return {
    subOrganizationId: result.subOrganizationId,
    address,
    credentials: { apiBaseUrl: parent.apiBaseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, organizationId: result.subOrganizationId },
  };
}

/**
 * Signs an unsigned, serialized Ethereum transaction (0x…) with the user's wallet.
 * @param {{ address: string, credentials: TApiCredentials }} user
 * @param {string} unsignedTransaction
 */
async function signTransaction(user, unsignedTransaction) {
  const { signedTransaction } = await client(user.credentials).signTransaction({ signWith: user.address, unsignedTransaction: unsignedTransaction.slice(2), type: 'TRANSACTION_TYPE_ETHEREUM' });
  return `0x${signedTransaction.replace(/^0x/, '')}`;
}

module.exports = { createUserWallet, signTransaction };
