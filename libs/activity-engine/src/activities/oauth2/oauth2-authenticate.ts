/**
 * oauth2_authenticate: a login through an OAuth 2.0 provider that issues no id_token (X, Discord).
 * The authorization code (PKCE) is exchanged at the provider's token endpoint with the
 * organization's client credential, the provider's user-info endpoint names the user, and Latchkey
 * answers with an OIDC token it signs itself (@latchkey/identity-providers signs it; its claims
 * are documented there). That token then goes to oauth_login (nonce = sha256 of the session key)
 * like any OpenID provider's, and is matched against the user's OAuth provider (iss = Latchkey's
 * issuer URL, sub, aud = client id).
 *
 * Like the other login activities it may be submitted by the parent for a sub-organization, and a
 * refusal (unknown credential, a code the provider refuses) is an HTTP 4xx leaving no activity
 * behind. The credential is looked for in the target organization, then in its parent (the app's
 * organization, when the parent acts for a sub-organization's user). The provider calls run inside
 * the activity's transaction, each bounded by a 10 s timeout.
 */
import { decompressP256PublicKey, hpkeSeal, newId } from '@latchkey/crypto';
import { AppError, ZOauth2AuthenticateIntentSchema, type TOauth2AuthenticateIntent, OAUTH2_AUTHENTICATE_ACTIVITY } from '@latchkey/domain';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { withServerKey } from '../../keys/server-keys.js';
import { oauth2ClientSecretAad } from '../../keys/vault-aad.js';
import { notFound, providerOf, type TOauth2CredentialRow } from '../../identity/oauth2-credential-rows.js';

async function findCredential(ctx: TActivityContext, id: string): Promise<TOauth2CredentialRow> {
  const own = await ctx.tx.oauth2Credentials.findById(ctx.organizationId, id);
  if (own) return own;
  const org = await ctx.tx.organizations.findById(ctx.organizationId);
  const inParent = org?.parentOrganizationId ? await ctx.tx.oauth2Credentials.findById(org.parentOrganizationId, id) : null;
  if (inParent) return inParent;
  throw notFound(id);
}

/** The provider's access token, HPKE-sealed to the caller's key, as `{"encappedPublic","ciphertext"}` hex JSON. */
async function encryptBearerToken(accessToken: string, targetPublicKey: string): Promise<string> {
  const sealed = await hpkeSeal(new TextEncoder().encode(accessToken), targetPublicKey);
  return JSON.stringify({ encappedPublic: Buffer.from(sealed.encappedPublic).toString('hex'), ciphertext: Buffer.from(sealed.ciphertext).toString('hex') });
}

export const oauth2Authenticate: TActivityDefinition<TOauth2AuthenticateIntent, { oidcToken: string }> = {
  ...OAUTH2_AUTHENTICATE_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZOauth2AuthenticateIntentSchema,
  validate(p) {
    // Checked before the code is spent at the provider: a key off the curve would fail only after.
    if (p.bearerTokenTargetPublicKey === undefined) return;
    try {
      decompressP256PublicKey(p.bearerTokenTargetPublicKey);
    } catch {
      throw new AppError('BAD_REQUEST', 'bearerTokenTargetPublicKey is not a point on P-256', { field: 'bearerTokenTargetPublicKey' });
    }
  },
  async handle(ctx, p) {
    const providers = ctx.services.oauth2;
    if (!providers) throw new AppError('UNAVAILABLE', 'OAuth 2.0 logins are not configured in this process');
    const credential = await findCredential(ctx, p.oauth2CredentialId);
    const provider = providerOf(credential);

    const secret = ctx.vault.open(credential.sealedClientSecret, oauth2ClientSecretAad(credential.id));
    let signedIn: { accessToken: string; subject: string };
    try {
      signedIn = await providers.authenticate(provider, {
        clientId: credential.clientId,
        clientSecret: new TextDecoder().decode(secret),
        code: p.authCode,
        redirectUri: p.redirectUri,
        codeVerifier: p.codeVerifier,
      });
    } finally {
      secret.fill(0);
    }

    const encryptedBearerToken = p.bearerTokenTargetPublicKey ? await encryptBearerToken(signedIn.accessToken, p.bearerTokenTargetPublicKey) : undefined;
    const oidcToken = await withServerKey(ctx.tx, ctx.vault, 'oidc_issuer', (key) =>
      providers.signIdToken(key, {
        subject: signedIn.subject,
        audience: credential.clientId,
        nonce: p.nonce,
        jti: newId(),
        now: ctx.now,
        ...(encryptedBearerToken !== undefined ? { encryptedBearerToken } : {}),
      }),
    );
    return { oidcToken };
  },
};
