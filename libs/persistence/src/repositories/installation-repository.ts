/**
 * The installation's records on plain SQL, for the launcher's first-start steps (the vault check,
 * the server keys, the first root organization: libs/platform's installation.ts) and for the
 * server keys every app reads at start.
 *
 * Why not the Prisma repositories: a process that runs these and nothing else (the launcher, at
 * every start) would pay for Prisma's client and its query compiler — loading the compiler's
 * WebAssembly and compiling each statement's shape once, about 0.6 CPU-seconds of a test
 * instance's start on a 2-core machine (docs/BENCHMARKS.md, "Testkit start") — for a dozen
 * statements. The methods have the names, arguments and results of the Prisma repositories' own
 * (the spec compares the rows they write), so the installation steps take either store.
 */
import type { TDatabase, TSql } from '../database.js';
import type { ApiKey, Organization, User } from '../generated/prisma/client.js';
import type { TCredentialRepository, TNewApiKey } from './credential-repository.js';
import type { TNewOrganization, TOrganizationRepository } from './organization-repository.js';
import { readServerKeys, type TSystemRepository } from './system-repository.js';
import type { TNewUser, TUserRepository } from './user-repository.js';

/** What the installation steps read and write, in a transaction or not. The Prisma store has all of it. */
export interface TInstallationRepositories {
  system: TSystemRepository;
  organizations: Pick<TOrganizationRepository, 'create' | 'addRootQuorumMembers'>;
  users: Pick<TUserRepository, 'create' | 'listByOrganization'>;
  credentials: Pick<TCredentialRepository, 'createApiKey' | 'listApiKeysByOrganization'>;
}

export interface TInstallationStore extends TInstallationRepositories {
  /** One plain-SQL transaction: COMMIT when `fn` resolves, ROLLBACK when it throws. */
  transaction<T>(fn: (tx: TInstallationRepositories) => Promise<T>): Promise<T>;
}

// The columns as the Prisma models name them, so a row reads the same from either store.
const ORGANIZATION = `id, parent_organization_id AS "parentOrganizationId", name, root_quorum_threshold AS "rootQuorumThreshold", created_at AS "createdAt", updated_at AS "updatedAt", deleted_at AS "deletedAt"`;
const USER = `id, organization_id AS "organizationId", user_name AS "userName", user_email AS "userEmail", user_phone_number AS "userPhoneNumber", created_at AS "createdAt", updated_at AS "updatedAt", deleted_at AS "deletedAt"`;
const API_KEY = `id, organization_id AS "organizationId", user_id AS "userId", name, public_key AS "publicKey", curve, credential_type AS "credentialType", expires_at AS "expiresAt", created_at AS "createdAt", updated_at AS "updatedAt", deleted_at AS "deletedAt", session_profile_id AS "sessionProfileId"`;

function first<R>(rows: R[], what: string): R {
  const row = rows[0];
  if (row === undefined) throw new Error(`INSERT … RETURNING gave no ${what} row`);
  return row;
}

function installationRepositories(sql: TSql): TInstallationRepositories {
  return {
    system: {
      serverKeys: () => readServerKeys(sql),
      async addServerKey(k: { purpose: string; publicKey: string; sealedPrivateKey: string }): Promise<void> {
        await sql.query('INSERT INTO server_keys (purpose, public_key, sealed_private_key) VALUES ($1, $2, $3)', [k.purpose, k.publicKey, k.sealedPrivateKey]);
      },
      async getState(key: string): Promise<string | null> {
        return (await sql.query<{ value: string }>('SELECT value FROM system_state WHERE key = $1', [key])).rows[0]?.value ?? null;
      },
      async setState(key: string, value: string): Promise<void> {
        await sql.query('INSERT INTO system_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()', [key, value]);
      },
      async lockForTransaction(key: number): Promise<void> {
        await sql.query('SELECT pg_advisory_xact_lock($1)', [key]);
      },
    },
    organizations: {
      async create(o: TNewOrganization): Promise<Organization> {
        const { rows } = await sql.query<Organization>(
          `INSERT INTO organizations (id, name, parent_organization_id, root_quorum_threshold) VALUES ($1, $2, $3, $4) RETURNING ${ORGANIZATION}`,
          [o.id, o.name, o.parentOrganizationId ?? null, o.rootQuorumThreshold ?? 1],
        );
        return first(rows, 'organization');
      },
      async addRootQuorumMembers(organizationId: string, userIds: string[]): Promise<void> {
        await sql.query('INSERT INTO root_quorum_members (organization_id, user_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [organizationId, userIds]);
      },
    },
    users: {
      async create(u: TNewUser): Promise<User> {
        const { rows } = await sql.query<User>(
          `INSERT INTO users (id, organization_id, user_name, user_email, user_phone_number, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now()), coalesce($6::timestamptz, now())) RETURNING ${USER}`,
          [u.id, u.organizationId, u.userName, u.userEmail ?? null, u.userPhoneNumber ?? null, u.createdAt ?? null],
        );
        return first(rows, 'user');
      },
      async listByOrganization(organizationId: string): Promise<User[]> {
        return (await sql.query<User>(`SELECT ${USER} FROM users WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY id`, [organizationId])).rows;
      },
    },
    credentials: {
      async createApiKey(k: TNewApiKey): Promise<ApiKey> {
        const { rows } = await sql.query<ApiKey>(
          `INSERT INTO api_keys (id, organization_id, user_id, name, public_key, curve, credential_type, expires_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::timestamptz, now()), coalesce($9::timestamptz, now())) RETURNING ${API_KEY}`,
          [k.id, k.organizationId, k.userId, k.name, k.publicKey, k.curve, k.credentialType, k.expiresAt ?? null, k.createdAt ?? null],
        );
        return first(rows, 'API key');
      },
      async listApiKeysByOrganization(organizationId: string, userIds?: readonly string[]): Promise<ApiKey[]> {
        return (
          await sql.query<ApiKey>(`SELECT ${API_KEY} FROM api_keys WHERE organization_id = $1 AND deleted_at IS NULL AND ($2::text[] IS NULL OR user_id = ANY($2::text[])) ORDER BY id`, [
            organizationId,
            userIds ? [...userIds] : null,
          ])
        ).rows;
      },
    },
  };
}

/** The installation's records on the pool's plain SQL (`TDatabase.sql` / `sqlTransaction`): Prisma is never touched. */
export function installationStore(db: Pick<TDatabase, 'sql' | 'sqlTransaction'>): TInstallationStore {
  return {
    ...installationRepositories(db.sql),
    transaction: (fn) => db.sqlTransaction((tx) => fn(installationRepositories(tx))),
  };
}
