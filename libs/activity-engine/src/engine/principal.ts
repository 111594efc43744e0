/** Who signed a request, as established by the stamp. */
import type { TExpr } from '@latchkey/policy';

/** A session profile's scope, parsed (`session-scope.ts` parses and enforces it). */
export type TSessionScope =
  | { kind: 'read-only' }
  | { kind: 'list'; pairs: readonly { resource: string; action: string }[] }
  | { kind: 'condition'; expr: TExpr };

/** A session key's profile, as authentication puts it on the principal. */
export interface TSessionProfileRef {
  id: string;
  name: string;
  scope: TSessionScope;
}

/** Every credential carries the stamp that authenticated the request: a vote records it. */
interface TStampProof {
  /** The key that signed (hex), the scheme, and the signature (hex) over the raw body. */
  publicKey: string;
  scheme: string;
  signature: string;
}

export type TCredentialRef =
  | ({ kind: 'api-key'; apiKeyId: string; credentialType: string } & TStampProof)
  | ({ kind: 'webauthn'; authenticatorId: string; credentialId: string } & TStampProof)
  /**
   * X-Stamp-Attested: a fresh key vouched for by a verification token or an OIDC token (stamp_login
   * only). `verificationTokenId` names the token to spend: stamp_login spends it inside its own
   * transaction, so a request refused after authentication leaves the token usable.
   */
  | ({
      kind: 'attested';
      verificationTokenId?: string;
      /** The contact that token proves: recorded as verified when the token is spent (list_verified_suborgs). */
      verifiedContact?: TVerifiedContact;
    } & TStampProof)
  /**
   * X-Session: a read-only session's bearer token (create_read_only_session); no stamp, so the
   * proof fields are empty. It authenticates queries only (engine.ts refuses it on submit).
   */
  | { kind: 'read-only-session'; publicKey: ''; scheme: 'READ_ONLY_SESSION'; signature: '' };

/** A contact proved by a verification token, by its list_verified_suborgs filter type. */
export interface TVerifiedContact {
  kind: 'EMAIL' | 'PHONE_NUMBER';
  contact: string;
}

/** The filter type of a verification token's contact (`OTP_TYPE_EMAIL`, else a phone number: SMS, WhatsApp). */
export const verifiedContactOf = (claims: { verificationType: string; contact: string }): TVerifiedContact => ({
  kind: claims.verificationType === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER',
  contact: claims.contact,
});

export interface TPrincipal {
  /** The organization the credential lives in (the target or its parent). */
  organizationId: string;
  userId: string;
  credential: TCredentialRef;
  /** The session profile a session key was issued under (its scope limits what it may submit). */
  sessionProfile?: TSessionProfileRef;
}
