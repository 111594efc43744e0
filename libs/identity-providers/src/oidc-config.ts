/**
 * Which plain-http OpenID issuers the platform accepts (https ones always are): its own issuer,
 * when `LATCHKEY_PUBLIC_URL` is http (the id_tokens oauth2_authenticate issues, which oauth_login
 * then verifies), and the development identity providers listed in `LATCHKEY_OIDC_HTTP_ISSUERS`.
 * Any other http issuer is refused before anything is fetched: an id_token names its own issuer,
 * and without this list any caller could make the server fetch from any http address, a service
 * on its own loopback included.
 */

/**
 * @returns the issuer strings, exactly as their tokens' `iss` must read
 * @throws Error naming LATCHKEY_OIDC_HTTP_ISSUERS when an entry is not a plain http URL without
 *   credentials, query or fragment
 */
export function readOidcHttpIssuers(env: Record<string, string | undefined>, publicUrl: string): string[] {
  const variable = 'LATCHKEY_OIDC_HTTP_ISSUERS';
  const listed = (env[variable] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const issuer of listed) {
    let u: URL;
    try {
      u = new URL(issuer);
    } catch {
      throw new Error(`${variable}: ${JSON.stringify(issuer)} is not a URL`);
    }
    if (u.protocol !== 'http:') throw new Error(`${variable}: ${JSON.stringify(issuer)} is not an http:// issuer (https issuers need no listing)`);
    if (u.username || u.password || u.search || u.hash) throw new Error(`${variable}: ${JSON.stringify(issuer)} must have no credentials, query or fragment`);
  }
  const own = publicUrl.startsWith('http:') ? [publicUrl] : [];
  return [...new Set([...own, ...listed])];
}
