/**
 * Login state: which sub-organization holds a credential (logins aimed at the parent), OTP
 * records, session records and spent verification tokens. Session keys themselves are API keys
 * (credential types *_SESSION_*, LOGIN, OTP_AUTH…, with an expiry), so the ordinary stamp check
 * authenticates them; this repository only adds what is particular to logins.
 */
import type { TDb } from '../database.js';
import type { ApiKey, Authenticator, OauthProvider, OtpRecord } from '../generated/prisma/client.js';

export interface TNewOtpRecord {
  id: string;
  organizationId: string;
  kind: 'OTP' | 'OTP_AUTH';
  otpType: string;
  contact: string;
  codeHash: string;
  codeSalt: string;
  userId?: string | null;
  targetPublicKey?: string | null;
  sealedTargetPrivateKey?: string | null;
  expiresAt: Date;
}

export interface TNewSession {
  id: string;
  organizationId: string;
  userId: string;
  publicKey: string;
  sessionType: string;
  expiresAt: Date;
}

async function liveChildIds(db: TDb, parentId: string): Promise<string[]> {
  const rows = await db.organization.findMany({ where: { parentOrganizationId: parentId, deletedAt: null }, select: { id: true }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.id);
}

export function loginRepository(db: TDb) {
  return {
    /** Live API keys with this public key in live direct sub-organizations of `parentId`. */
    async apiKeysInSubOrganizations(parentId: string, publicKey: string): Promise<ApiKey[]> {
      return db.apiKey.findMany({
        where: { publicKey, deletedAt: null, organizationId: { in: await liveChildIds(db, parentId) } },
      });
    },
    /** Live authenticators with this credential id in live direct sub-organizations of `parentId`. */
    async authenticatorsInSubOrganizations(parentId: string, credentialId: string): Promise<Authenticator[]> {
      return db.authenticator.findMany({ where: { organizationId: { in: await liveChildIds(db, parentId) }, credentialId, deletedAt: null } });
    },
    /** Users with this e-mail (case-insensitive) or phone number in `organizationIds`. */
    async usersByContact(organizationIds: string[], otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string) {
      if (otpType === 'OTP_TYPE_EMAIL') {
        return db.user.findMany({
          where: { organizationId: { in: organizationIds }, userEmail: { equals: contact, mode: 'insensitive' }, deletedAt: null },
          orderBy: { id: 'asc' },
        });
      }
      return db.user.findMany({ where: { organizationId: { in: organizationIds }, userPhoneNumber: contact, deletedAt: null }, orderBy: { id: 'asc' } });
    },
    /** Live direct sub-organization ids of `parentId`. */
    async subOrganizationIds(parentId: string): Promise<string[]> {
      return liveChildIds(db, parentId);
    },
    /** OAuth providers matching (iss, sub) in `organizationIds`, with any audience. */
    async oauthProvidersBySubject(organizationIds: string[], issuer: string, subject: string): Promise<OauthProvider[]> {
      return db.oauthProvider.findMany({ where: { organizationId: { in: organizationIds }, issuer, subject, deletedAt: null }, orderBy: { id: 'asc' } });
    },

    async createOtp(r: TNewOtpRecord): Promise<OtpRecord> {
      return db.otpRecord.create({ data: { ...r, userId: r.userId ?? null, targetPublicKey: r.targetPublicKey ?? null, sealedTargetPrivateKey: r.sealedTargetPrivateKey ?? null } });
    },
    async findOtp(organizationId: string, id: string): Promise<OtpRecord | null> {
      return db.otpRecord.findFirst({ where: { id, organizationId } });
    },
    /** Marks the code used unless it already was. @returns false when another request used it first */
    async useOtp(id: string, at: Date): Promise<boolean> {
      const { count } = await db.otpRecord.updateMany({ where: { id, usedAt: null }, data: { usedAt: at } });
      return count === 1;
    },
    /**
     * Counts one verification attempt, atomically and only while fewer than `max` were made.
     * @returns false when the record is unknown or its attempts are used up
     */
    async claimOtpAttempt(organizationId: string, id: string, max: number): Promise<boolean> {
      const n = await db.$executeRaw`UPDATE otp_records SET attempts = attempts + 1 WHERE id = ${id} AND organization_id = ${organizationId} AND attempts < ${max}`;
      return n === 1;
    },
    /** OTPs sent to `contact` since `since`, across every organization (the per-contact limit). */
    async countOtpsSince(contact: string, since: Date): Promise<number> {
      return db.otpRecord.count({ where: { contact, createdAt: { gte: since } } });
    },

    async createSession(s: TNewSession): Promise<void> {
      await db.session.create({ data: s });
    },
    /**
     * Deletes the user's live API keys of the given credential types (a login with
     * `invalidateExisting`), returning their public keys so caches can forget them.
     */
    async deleteUserKeysOfTypes(organizationId: string, userId: string, credentialTypes: string[], at: Date): Promise<string[]> {
      const keys = await db.apiKey.findMany({ where: { organizationId, userId, credentialType: { in: credentialTypes }, deletedAt: null }, select: { id: true, publicKey: true } });
      if (keys.length === 0) return [];
      await db.apiKey.updateMany({ where: { id: { in: keys.map((k) => k.id) } }, data: { deletedAt: at, updatedAt: at } });
      await db.session.updateMany({ where: { organizationId, userId, invalidatedAt: null, publicKey: { in: keys.map((k) => k.publicKey) } }, data: { invalidatedAt: at } });
      return keys.map((k) => k.publicKey);
    },

    /**
     * Moves a passkey's signature counter forward to `signCount`, atomically, and only forward.
     * @returns false when another request already recorded this count or a higher one (a replay or a clone)
     */
    async advanceSignCount(authenticatorId: string, signCount: number): Promise<boolean> {
      const n = await db.$executeRaw`UPDATE authenticators SET sign_count = ${BigInt(signCount)} WHERE id = ${authenticatorId} AND sign_count < ${BigInt(signCount)}`;
      return n === 1;
    },
    /** Records a verification token as spent. @returns false when it was spent before. */
    async spendVerificationToken(id: string, organizationId: string): Promise<boolean> {
      const n = await db.$executeRaw`INSERT INTO spent_verification_tokens (id, organization_id) VALUES (${id}, ${organizationId}) ON CONFLICT (id) DO NOTHING`;
      return n === 1;
    },
    /**
     * Records that the user proved `contact` with a verification token (list_verified_suborgs
     * finds them by it). E-mail is stored lower-cased, as list_verified_suborgs compares it.
     */
    async markContactVerified(v: { userId: string; organizationId: string; kind: 'EMAIL' | 'PHONE_NUMBER'; contact: string; at?: Date }): Promise<void> {
      const contact = v.kind === 'EMAIL' ? v.contact.toLowerCase() : v.contact;
      await db.$executeRaw`INSERT INTO verified_contacts (user_id, organization_id, kind, contact, verified_at) VALUES (${v.userId}, ${v.organizationId}, ${v.kind}, ${contact}, ${v.at ?? new Date()})
        ON CONFLICT (user_id, kind, contact) DO NOTHING`;
    },
  };
}
export type TLoginRepository = ReturnType<typeof loginRepository>;
