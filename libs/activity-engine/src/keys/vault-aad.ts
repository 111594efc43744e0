/**
 * Every additional-authenticated-data string the key vault seals under, in one place. The AAD binds
 * a sealed secret to the one row it belongs to: a ciphertext copied to another row (or another
 * kind of row) fails authentication instead of opening. Changing one of these strings makes every
 * existing ciphertext of that kind unreadable — they are part of the storage format.
 */

/** A server key (`signer`, `notarizer`, …). */
export const serverKeyAad = (purpose: string) => `server-key:${purpose}`;
/** A wallet's mnemonic. */
export const walletSeedAad = (walletId: string) => `wallet-seed:${walletId}`;
/** A wallet account's derived private key (sealed at creation so signing does not re-derive). */
export const walletAccountKeyAad = (walletAccountId: string) => `wallet-account-key:${walletAccountId}`;
/** A private key's scalar. */
export const privateKeyAad = (privateKeyId: string) => `private-key:${privateKeyId}`;
/** The one-time private key of an import target (init_import_*). */
export const importTargetAad = (importTargetId: string) => `import-target:${importTargetId}`;
/** The private key of an OTP's encryption target (verify_otp's encrypted code bundle). */
export const otpTargetAad = (otpId: string) => `otp-target:${otpId}`;
/** An imported opaque secret (import_secrets): its UTF-8 bytes. */
export const secretAad = (secretId: string) => `secret:${secretId}`;
/** An OAuth 2.0 credential's client secret. */
export const oauth2ClientSecretAad = (oauth2CredentialId: string) => `oauth2-client-secret:${oauth2CredentialId}`;
/** The gas relayer's private key (one per installation). */
export const gasRelayerAad = () => 'gas-relayer:default';
/** A TVC deployment's encrypted pull secret, as the client sent it (create_tvc_deployment). */
export const tvcPullSecretAad = (deploymentId: string) => `tvc-pull-secret:${deploymentId}`;
/** An auth proxy user's private key (declared in @latchkey/domain: the proxy process opens it too). */
export { authProxyKeyAad } from '@latchkey/domain';
