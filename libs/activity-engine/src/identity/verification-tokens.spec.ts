/**
 * assertSignupUsageMatches: the signed sign-up must describe the create_sub_organization it comes
 * with (notes §8), for core 2.8's `signupV2` and the newer `signupV3`.
 */
import { AppError } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { assertSignupUsageMatches, type TSignupRequest } from './verification-tokens.js';

const apiKey = { apiKeyName: 'device', publicKey: '02aa', curveType: 'API_KEY_CURVE_P256' };
const passkey = { authenticatorName: 'laptop', challenge: 'c', attestation: { credentialId: 'cred-1', clientDataJson: 'x', attestationObject: 'y', transports: [] } };
const provider = { providerName: 'google', oidcClaims: { iss: 'https://accounts.google.com', sub: 's', aud: 'app' } };

const request = (over: Partial<TSignupRequest['rootUsers'][number]> = {}): TSignupRequest => ({
  subOrganizationName: 'Alice',
  rootUsers: [{ userEmail: 'Alice@Example.com', apiKeys: [apiKey], authenticators: [passkey], oauthProviders: [provider], ...over }],
});

function mismatchOf(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).httpStatus).toBe(400);
    return String((e as AppError).fields?.['mismatch']);
  }
  throw new Error('expected a refusal');
}

describe('assertSignupUsageMatches (signupV2)', () => {
  const signed = { apiKeys: [apiKey], authenticators: [passkey], oauthProviders: [provider], email: 'alice@example.com' };

  it('accepts the usage core signs for this request (e-mail compared without case, public keys without hex case)', () => {
    expect(() => assertSignupUsageMatches('signupV2', signed, request())).not.toThrow();
    expect(() => assertSignupUsageMatches('signupV2', { ...signed, apiKeys: [{ ...apiKey, publicKey: '02AA' }] }, request())).not.toThrow();
  });

  it('refuses credentials or a contact the signature does not cover', () => {
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', signed, request({ apiKeys: [apiKey, { ...apiKey, publicKey: '03bb' }] })))).toBe('apiKeys');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', { ...signed, authenticators: [] }, request()))).toBe('authenticators');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', { ...signed, oauthProviders: undefined }, request()))).toBe('oauthProviders');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', { ...signed, oauthProviders: [{ ...provider, oidcClaims: { ...provider.oidcClaims, sub: 'other' } }] }, request()))).toBe('oauthProviders');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', { ...signed, email: 'mallory@example.com' }, request()))).toBe('email');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV2', { ...signed, phoneNumber: '+14155550100' }, request()))).toBe('phoneNumber');
  });
});

describe('assertSignupUsageMatches (signupV3)', () => {
  const signed = {
    parentOrganizationId: 'p',
    subOrganizationName: 'Alice',
    rootUsers: [{ userName: 'Alice', userEmail: 'alice@example.com', apiKeys: [apiKey], authenticators: [passkey], oauthProviders: [provider] }],
    rootQuorumThreshold: 1,
  };

  it('accepts the whole request as signed, and refuses any root user, credential or name that differs', () => {
    expect(() => assertSignupUsageMatches('signupV3', signed, request())).not.toThrow();
    expect(mismatchOf(() => assertSignupUsageMatches('signupV3', { ...signed, subOrganizationName: 'Mallory' }, request()))).toBe('subOrganizationName');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV3', { ...signed, rootUsers: [] }, request()))).toBe('rootUsers');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV3', signed, request({ authenticators: [] })))).toBe('rootUsers[0].authenticators');
    expect(mismatchOf(() => assertSignupUsageMatches('signupV3', signed, request({ userPhoneNumber: '+14155550100' })))).toBe('rootUsers[0].userPhoneNumber');
  });
});
