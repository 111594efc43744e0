/**
 * Where oauth2_authenticate talks to: each provider's token and user-info endpoints (X and
 * Discord by default, each overridable by environment variable so a test or a proxy can stand in)
 * and the issuer URL Latchkey's own OIDC tokens carry. Pure: the caller passes the environment
 * and the issuer in, so the rules can be tested and documented from one table.
 */
import { OAUTH2_PROVIDERS, type TOauth2Provider } from '@latchkey/domain';

/** Each variable and what it does (mirrors the README's configuration table). */
export const OAUTH2_CONFIG_VARIABLES = {
  LATCHKEY_OAUTH2_X_TOKEN_URL: 'Token endpoint oauth2_authenticate uses for OAUTH2_PROVIDER_X. Default https://api.x.com/2/oauth2/token.',
  LATCHKEY_OAUTH2_X_USERINFO_URL: 'User endpoint for OAUTH2_PROVIDER_X (the user id is data.id, or sub). Default https://api.x.com/2/users/me.',
  LATCHKEY_OAUTH2_DISCORD_TOKEN_URL: 'Token endpoint for OAUTH2_PROVIDER_DISCORD. Default https://discord.com/api/oauth2/token.',
  LATCHKEY_OAUTH2_DISCORD_USERINFO_URL: 'User endpoint for OAUTH2_PROVIDER_DISCORD (the user id is id, or sub). Default https://discord.com/api/users/@me.',
} as const;

export interface TOauth2Endpoints {
  tokenUrl: string;
  userinfoUrl: string;
}

export interface TOauth2Config {
  /** `iss` of the tokens Latchkey issues: the public API's base URL (TConfig.publicUrl). */
  issuer: string;
  providers: Record<TOauth2Provider, TOauth2Endpoints>;
  /** Per request to a provider. Default 10 s. */
  timeoutMs?: number;
  /** For tests and proxies; the global fetch otherwise. */
  fetch?: typeof fetch;
}

export const DEFAULT_OAUTH2_ENDPOINTS: Readonly<Record<TOauth2Provider, TOauth2Endpoints>> = {
  OAUTH2_PROVIDER_X: { tokenUrl: 'https://api.x.com/2/oauth2/token', userinfoUrl: 'https://api.x.com/2/users/me' },
  OAUTH2_PROVIDER_DISCORD: { tokenUrl: 'https://discord.com/api/oauth2/token', userinfoUrl: 'https://discord.com/api/users/@me' },
};

/** `OAUTH2_PROVIDER_X` → `X`: the middle of the variable names. */
const envName = (p: TOauth2Provider) => p.replace(/^OAUTH2_PROVIDER_/, '');

/** Provider user ids are namespaced by this in the `sub` Latchkey issues (`x:…`, `discord:…`). */
export const subjectPrefix = (p: TOauth2Provider) => `${envName(p).toLowerCase()}:`;

function endpointUrl(variable: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${variable} is not a URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`${variable} must be an http(s) URL`);
  if (u.username || u.password) throw new Error(`${variable} must not carry credentials`);
  return u.href;
}

/**
 * Reads the provider endpoints from the environment (empty counts as unset).
 * @throws Error naming a variable that is not an http(s) URL
 */
export function readOauth2Config(env: Record<string, string | undefined>, issuer: string): TOauth2Config {
  const providers = {} as Record<TOauth2Provider, TOauth2Endpoints>;
  for (const p of OAUTH2_PROVIDERS) {
    const pick = (kind: 'TOKEN' | 'USERINFO', fallback: string) => {
      const variable = `LATCHKEY_OAUTH2_${envName(p)}_${kind}_URL`;
      const v = env[variable];
      return v !== undefined && v !== '' ? endpointUrl(variable, v) : fallback;
    };
    providers[p] = { tokenUrl: pick('TOKEN', DEFAULT_OAUTH2_ENDPOINTS[p].tokenUrl), userinfoUrl: pick('USERINFO', DEFAULT_OAUTH2_ENDPOINTS[p].userinfoUrl) };
  }
  return { issuer, providers };
}
