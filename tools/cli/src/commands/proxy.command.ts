/**
 * `latchkey proxy enable --org ID` and `latchkey proxy set --org ID --origins … --methods …`: the
 * auth proxy's configuration from a shell. Unlike `org create`, these do not write the database:
 * they are the public API's own stamped activities (enable_auth_proxy, update_auth_proxy_config),
 * sent to the running platform with one of the organization's API keys, so the activity is
 * recorded, policy-checked and webhooked exactly as when a Turnkey SDK sends it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { publicKeyForCurve, signP256 } from '@latchkey/crypto';
import { parseConfig, type TConfig } from '@latchkey/domain';
import { defineCommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';

/** The key a request is stamped with. */
export interface TStampKey {
  publicKey: string;
  privateKey: string;
}

/**
 * The API key in a JSON file: `bootstrap.json` (`apiPrivateKey`) or `latchkey keygen`'s output
 * (`privateKey`). The public key is recomputed, so a file whose halves disagree is refused here
 * rather than answered 401 by the server.
 * @throws UsageError when the file is missing, not JSON, or holds no P-256 private key
 */
export async function readStampKey(path: string): Promise<TStampKey> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--key-file: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give a file holding the organization's API key, e.g. the output of \`latchkey keygen\``);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new UsageError(`--key-file: ${path} is not JSON`);
  }
  const privateKey = json['apiPrivateKey'] ?? json['privateKey'];
  if (typeof privateKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(privateKey)) {
    throw new UsageError(`--key-file: ${path} holds no P-256 private key (an "apiPrivateKey" or "privateKey" of 64 hex characters); bootstrap.json has none when LATCHKEY_ROOT_API_PUBLIC_KEY was set`);
  }
  let publicKey: string;
  try {
    publicKey = Buffer.from(publicKeyForCurve('CURVE_P256', Buffer.from(privateKey, 'hex'))).toString('hex');
  } catch {
    throw new UsageError(`--key-file: the private key in ${path} is not a valid P-256 key`);
  }
  const stated = json['apiPublicKey'] ?? json['publicKey'];
  if (typeof stated === 'string' && stated.toLowerCase() !== publicKey) throw new UsageError(`--key-file: in ${path} the public key is not the private key's`);
  return { publicKey, privateKey: privateKey.toLowerCase() };
}

/** `--origins a,b` / `--methods email,oauth`: comma- or space-separated, blanks dropped. */
export function listOption(raw: string | undefined, flag: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const items = raw.split(/[\s,]+/).filter((s) => s !== '');
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value (comma-separated)`);
  return items;
}

interface TApiError {
  code?: number;
  message?: string;
}

/** The public API refused a request (other than with a 400, which is a UsageError). */
class ApiRefusal extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A stamped POST to the running public API. @throws UsageError for a 400, ApiRefusal for another refusal, Error when unreachable */
async function post(config: TConfig, key: TStampKey, path: string, body: object): Promise<Record<string, unknown>> {
  const raw = Buffer.from(JSON.stringify(body));
  const stamp = Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(key.privateKey, raw) })).toString('base64url');
  const url = `${config.publicApiUrl}${path}`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp': stamp }, body: raw, signal: AbortSignal.timeout(30_000) });
  } catch (e) {
    throw new Error(`cannot reach the public API at ${config.publicApiUrl} (${(e as Error).message}); is \`latchkey start\` running? (LATCHKEY_PUBLIC_API_URL sets where it is)`);
  }
  const text = await res.text();
  let json: Record<string, unknown> & TApiError;
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new Error(`${url} answered ${res.status} with a body that is not JSON`);
  }
  if (res.status === 400) throw new UsageError(json.message ?? 'the public API refused the request (400)');
  if (!res.ok) throw new ApiRefusal(`${path.split('/').at(-1)}: ${json.message ?? `HTTP ${res.status}`} (HTTP ${res.status})`, res.status);
  return json;
}

/**
 * Submits an activity and answers its result (under `resultKey`).
 * @throws Error when the activity did not complete (failed, or waits for approvals)
 */
async function submit<T>(config: TConfig, key: TStampKey, kind: string, type: string, organizationId: string, parameters: object, resultKey: string): Promise<T> {
  const { activity } = (await post(config, key, `/public/v1/submit/${kind}`, { type, timestampMs: String(Date.now()), organizationId, parameters })) as {
    activity: { id: string; status: string; result?: Record<string, unknown>; failure?: { message?: string } };
  };
  if (activity.status === 'ACTIVITY_STATUS_COMPLETED') return activity.result?.[resultKey] as T;
  if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED') throw new Error(`${kind} waits for approvals (activity ${activity.id}): a policy requires more votes; approve it, then run the command again`);
  throw new Error(`${kind} ended ${activity.status}: ${activity.failure?.message ?? 'no reason given'} (activity ${activity.id})`);
}

interface TProxyConfigWire {
  configId: string;
  enabled: boolean;
  proxyUserId: string;
  walletKitSettings: { enabledSocialProviders: string[]; oauthClientIds: Record<string, string>; oauthRedirectUrl?: string };
}

/** The config, or undefined when the organization never enabled the proxy (the query's 404). */
async function currentConfig(config: TConfig, key: TStampKey, organizationId: string): Promise<TProxyConfigWire | undefined> {
  try {
    return ((await post(config, key, '/public/v1/query/get_auth_proxy_config', { organizationId })) as { authProxyConfig: TProxyConfigWire }).authProxyConfig;
  } catch (e) {
    if (e instanceof ApiRefusal && e.status === 404) return undefined;
    throw e;
  }
}

const keyFileOf = (config: TConfig, o: { keyFile?: string }) => o.keyFile ?? join(config.dataDir, 'bootstrap.json');

/**
 * Enables the proxy; enabling one already on is not an error (a setup script may run twice): it
 * answers the same config id with `alreadyEnabled: true`.
 */
export async function proxyEnableCommand(config: TConfig, o: { org: string; keyFile?: string }): Promise<{ configId: string; userId: string; alreadyEnabled: boolean }> {
  const key = await readStampKey(keyFileOf(config, o));
  const existing = await currentConfig(config, key, o.org);
  if (existing?.enabled) return { configId: existing.configId, userId: existing.proxyUserId, alreadyEnabled: true };
  const r = await submit<{ configId: string; userId: string }>(config, key, 'enable_auth_proxy', 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', o.org, {}, 'enableAuthProxyResult');
  return { configId: r.configId, userId: r.userId, alreadyEnabled: false };
}

interface TProxySetOptions {
  org: string;
  keyFile?: string;
  origins?: string;
  methods?: string;
  socialProviders?: string;
}

/** @throws UsageError when no setting is given, or the public API refuses a value (its message names the field). */
export async function proxySetCommand(config: TConfig, o: TProxySetOptions): Promise<{ configId: string }> {
  const allowedOrigins = listOption(o.origins, '--origins');
  const allowedAuthMethods = listOption(o.methods, '--methods');
  const enabledSocialProviders = listOption(o.socialProviders, '--social-providers');
  if (!allowedOrigins && !allowedAuthMethods && !enabledSocialProviders) throw new UsageError('proxy set needs at least one of --origins, --methods, --social-providers');
  const key = await readStampKey(keyFileOf(config, o));
  const parameters: Record<string, unknown> = { ...(allowedOrigins ? { allowedOrigins } : {}), ...(allowedAuthMethods ? { allowedAuthMethods } : {}) };
  if (enabledSocialProviders) {
    // walletKitSettings is replaced as a whole: keep the client ids and redirect URL already set.
    const current = await currentConfig(config, key, o.org);
    parameters['walletKitSettings'] = { ...(current?.walletKitSettings ?? {}), enabledSocialProviders };
  }
  const r = await submit<{ configId: string }>(config, key, 'update_auth_proxy_config', 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', o.org, parameters, 'updateAuthProxyConfigResult');
  return { configId: r.configId };
}

const KEY_FILE_OPTION = {
  flags: '--key-file <path>',
  description: "JSON file with one of the organization's API keys allowed to run the activity (default $LATCHKEY_DATA_DIR/bootstrap.json; `latchkey keygen` output works too)",
};
const ORG_OPTION = { flags: '--org <id>', description: 'the parent organization whose proxy this is', required: true };
const HOW = 'Sent as a stamped activity to the running public API (LATCHKEY_PUBLIC_API_URL, default this install\'s), so policies apply as to any client.';

export const proxyEnable = defineCommand<{ org: string; keyFile?: string }>({
  name: 'proxy enable',
  summary: 'turn the auth proxy on for an organization and print its config id',
  details: `Prints {"configId", "userId", "alreadyEnabled"}: configId is the X-Auth-Proxy-Config-ID (@turnkey/core's authProxyConfigId), userId the proxy user. ${HOW}`,
  options: [ORG_OPTION, KEY_FILE_OPTION],
  run: (o, { env }) => proxyEnableCommand(parseConfig(env), o),
});

export const proxySet = defineCommand<TProxySetOptions>({
  name: 'proxy set',
  summary: "set the auth proxy's allowed origins and auth methods; print the config id",
  details: `Each option given replaces that setting; the others stay. Prints {"configId"}. ${HOW}`,
  options: [
    ORG_OPTION,
    { flags: '--origins <list>', description: 'comma-separated exact origins (scheme://host[:port]), or * for any' },
    { flags: '--methods <list>', description: 'comma-separated auth methods: email, sms, passkey, wallet, oauth' },
    { flags: '--social-providers <list>', description: 'comma-separated OAuth providers oauth switches on: google, apple, facebook, x, discord' },
    KEY_FILE_OPTION,
  ],
  run: (o, { env }) => proxySetCommand(parseConfig(env), o),
});
