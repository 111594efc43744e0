/** Who signed a request, as established by the stamp. */

export type TCredentialRef =
  | { kind: 'api-key'; apiKeyId: string; publicKey: string; scheme: string; credentialType: string }
  | { kind: 'webauthn'; authenticatorId: string; credentialId: string }
  /** X-Stamp-Attested: a fresh key vouched for by a verification token or an OIDC token (stamp_login only). */
  | { kind: 'attested'; publicKey: string; scheme: string };

export interface TPrincipal {
  /** The organization the credential lives in (the target or its parent). */
  organizationId: string;
  userId: string;
  credential: TCredentialRef;
}
