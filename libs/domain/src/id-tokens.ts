/**
 * An OIDC id_token as verified, and what its verification checks: the engine's port
 * (`TIdTokenVerifier`) and `@latchkey/identity-providers`' verifier both speak these, so neither
 * imports the other. Types only.
 */

export interface TIdTokenVerifyOptions {
  expectedNonce?: string;
  /** When given, one `aud` must be among them. */
  expectedAudiences?: string[];
  /** The verification time (tests); now otherwise. */
  now?: Date;
  /**
   * When given, only these issuers are contacted (exact `iss` strings). Without it any https
   * issuer is: the caller then matches `iss`/`aud` against its registered OAuth providers.
   */
  allowedIssuers?: string[];
}

/** An id_token whose signature, issuer, expiry and (when asked) nonce and audience were checked. */
export interface TVerifiedIdToken {
  iss: string;
  sub: string;
  /** The audience that matched `expectedAudiences`; without them, `azp` when it is an audience, else the first. */
  aud: string;
  /** Every audience of the token. */
  audiences: string[];
  nonce?: string;
  email?: string;
  emailVerified?: boolean;
  claims: Record<string, unknown>;
}
