import { describe, expect, it } from 'vitest';
import { readOidcHttpIssuers } from './oidc-config.js';

describe('readOidcHttpIssuers', () => {
  it("takes the server's own issuer when it is http, and the listed ones, exactly as written", () => {
    expect(readOidcHttpIssuers({}, 'http://127.0.0.1:8080')).toEqual(['http://127.0.0.1:8080']);
    expect(readOidcHttpIssuers({}, 'https://wallet.example.com')).toEqual([]);
    expect(readOidcHttpIssuers({ LATCHKEY_OIDC_HTTP_ISSUERS: ' http://127.0.0.1:9000 ,http://idp.internal/realms/dev/,, ' }, 'https://wallet.example.com')).toEqual([
      'http://127.0.0.1:9000',
      'http://idp.internal/realms/dev/',
    ]);
    expect(readOidcHttpIssuers({ LATCHKEY_OIDC_HTTP_ISSUERS: 'http://127.0.0.1:8080' }, 'http://127.0.0.1:8080')).toEqual(['http://127.0.0.1:8080']);
  });

  it('refuses entries that are not plain http issuers, naming the variable', () => {
    expect(() => readOidcHttpIssuers({ LATCHKEY_OIDC_HTTP_ISSUERS: 'not a url' }, 'http://x')).toThrow(/LATCHKEY_OIDC_HTTP_ISSUERS: "not a url" is not a URL/);
    expect(() => readOidcHttpIssuers({ LATCHKEY_OIDC_HTTP_ISSUERS: 'https://accounts.google.com' }, 'http://x')).toThrow(/is not an http:\/\/ issuer/);
    expect(() => readOidcHttpIssuers({ LATCHKEY_OIDC_HTTP_ISSUERS: 'http://u:p@127.0.0.1:9000' }, 'http://x')).toThrow(/no credentials, query or fragment/);
  });
});
