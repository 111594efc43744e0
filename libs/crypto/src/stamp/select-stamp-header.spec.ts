/** Tests for choosing the single stamp header of a request. */
import { describe, expect, it } from 'vitest';
import { StampError } from '../errors.js';
import { selectStampHeader } from './select-stamp-header.js';
import { stampErrorOf } from '../test-vectors.js';


describe('selectStampHeader', () => {
  it('selects X-Stamp and X-Stamp-Webauthn', () => {
    expect(selectStampHeader({ 'x-stamp': 'abc', 'content-type': 'application/json' })).toEqual({
      kind: 'api-key',
      value: 'abc',
    });
    expect(selectStampHeader({ 'x-stamp-webauthn': '{"a":1}', 'x-stamp': undefined })).toEqual({
      kind: 'webauthn',
      value: '{"a":1}',
    });
  });

  it('SIGNATURE_MISSING when there is no stamp header', () => {
    expect(stampErrorOf(() => selectStampHeader({})).reason).toBe('SIGNATURE_MISSING');
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp': undefined, authorization: 'x' })).reason).toBe(
      'SIGNATURE_MISSING',
    );
  });

  it('MULTIPLE_STAMPS for two kinds, an array, or a repeated X-Stamp joined by Node', () => {
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp': 'a', 'x-stamp-webauthn': '{}' })).reason).toBe(
      'MULTIPLE_STAMPS',
    );
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp': 'a', 'x-stamp-attested': 'b' })).reason).toBe(
      'MULTIPLE_STAMPS',
    );
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp': ['a', 'b'] })).reason).toBe('MULTIPLE_STAMPS');
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp-webauthn': ['{}'] })).reason).toBe('MULTIPLE_STAMPS');
    expect(stampErrorOf(() => selectStampHeader({ 'x-stamp': 'abc, def' })).reason).toBe('MULTIPLE_STAMPS');
  });

  it('selects an attested stamp', () => {
    expect(selectStampHeader({ 'x-stamp-attested': 'abc' })).toEqual({ kind: 'attested', value: 'abc' });
  });
});
