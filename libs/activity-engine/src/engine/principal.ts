/** Who signed a request, as established by the stamp. */

export type TCredentialRef =
  | { kind: 'api-key'; apiKeyId: string; publicKey: string; scheme: string }
  | { kind: 'webauthn'; authenticatorId: string; credentialId: string };

export interface TPrincipal {
  /** The organization the credential lives in (the target or its parent). */
  organizationId: string;
  userId: string;
  credential: TCredentialRef;
}
