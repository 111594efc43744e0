/**
 * The store: one repository per aggregate, bound either to the pool or to a transaction. A unit
 * of work (an activity and all it writes, its outbox event included) runs inside `transaction`,
 * so a crash never leaves half of it.
 */
import type { PrismaClient } from './generated/prisma/client.js';
import type { TDb, TSql } from './database.js';
import { activityRepository } from './repositories/activity-repository.js';
import { credentialRepository } from './repositories/credential-repository.js';
import { organizationRepository } from './repositories/organization-repository.js';
import { loginRepository } from './repositories/login-repository.js';
import { oauth2CredentialRepository } from './repositories/oauth2-credential-repository.js';
import { policyRepository } from './repositories/policy-repository.js';
import { importTargetRepository } from './repositories/import-target-repository.js';
import { outboxRepository } from './repositories/outbox-repository.js';
import { privateKeyRepository } from './repositories/private-key-repository.js';
import { systemRepository } from './repositories/system-repository.js';
import { userRepository } from './repositories/user-repository.js';
import { walletRepository } from './repositories/wallet-repository.js';
import { webhookEndpointRepository } from './repositories/webhook-endpoint-repository.js';
import { authProxyConfigRepository } from './repositories/auth-proxy-config-repository.js';
import { ipAllowlistRepository } from './repositories/ip-allowlist-repository.js';
import { smartContractInterfaceRepository } from './repositories/smart-contract-interface-repository.js';
import { sessionProfileRepository } from './repositories/session-profile-repository.js';
import { mfaPolicyRepository } from './repositories/mfa-policy-repository.js';
import { tvcRepository } from './repositories/tvc-repository.js';
import { secretRepository } from './repositories/secret-repository.js';
import { invitationRepository } from './repositories/invitation-repository.js';
import { emailEventRepository } from './repositories/email-event-repository.js';
import { sendTransactionRepository } from './repositories/send-transaction-repository.js';
import { gasRepository } from './repositories/gas-repository.js';

/** `sql` only outside a transaction: plain SQL cannot join Prisma's transaction connection. */
function bindRepositories(db: TDb, sql?: TSql) {
  return {
    organizations: organizationRepository(db),
    users: userRepository(db),
    credentials: credentialRepository(db),
    activities: activityRepository(db, sql),
    wallets: walletRepository(db, sql),
    privateKeys: privateKeyRepository(db, sql),
    importTargets: importTargetRepository(db),
    logins: loginRepository(db),
    oauth2Credentials: oauth2CredentialRepository(db),
    policies: policyRepository(db),
    outbox: outboxRepository(db),
    webhookEndpoints: webhookEndpointRepository(db),
    authProxyConfigs: authProxyConfigRepository(db),
    ipAllowlists: ipAllowlistRepository(db),
    smartContractInterfaces: smartContractInterfaceRepository(db),
    sessionProfiles: sessionProfileRepository(db),
    mfaPolicies: mfaPolicyRepository(db),
    tvc: tvcRepository(db),
    secrets: secretRepository(db),
    invitations: invitationRepository(db),
    emailEvents: emailEventRepository(db),
    sendTransactions: sendTransactionRepository(db),
    gas: gasRepository(db),
    system: systemRepository(db, sql),
    /** Tells every process sharing the database that cached facts of `topic` changed (sent on commit). */
    async notifyChange(topic: TChangeTopic, key: string): Promise<void> {
      await db.$executeRaw`SELECT pg_notify(${CHANGE_CHANNEL}, ${`${topic}:${key}`})`;
    },
  };
}

export type TRepositories = ReturnType<typeof bindRepositories>;

export interface TStore extends TRepositories {
  transaction<T>(fn: (tx: TRepositories) => Promise<T>): Promise<T>;
}

export const CHANGE_CHANNEL = 'latchkey_changes';
/**
 * `signer`: an organization's signing keys changed (wallets, accounts or private keys deleted).
 * `credential-added`: a key now exists that a process may have refused (and remembered refusing)
 * before; only the remembered refusals are dropped.
 * `ip-allowlist`: an organization's IP allowlists changed (key: the organization id).
 * `mfa-policy`: an organization's MFA policies changed (key: the organization id).
 */
export type TChangeTopic = 'credential' | 'credential-added' | 'organization' | 'user' | 'signer' | 'ip-allowlist' | 'mfa-policy';

/**
 * `sql` (TDatabase.sql) lets the hot statements outside transactions skip Prisma; without it every
 * statement goes through Prisma (same results).
 */
export function createStore(prisma: PrismaClient, sql?: TSql): TStore {
  return {
    ...bindRepositories(prisma, sql),
    // maxWait (getting a connection and starting): Prisma's 2 s default fails a request, or the
    // launcher's first start, on a saturated machine where waiting a little longer would succeed.
    transaction: (fn) => prisma.$transaction((tx) => fn(bindRepositories(tx)), { maxWait: 10_000, timeout: 30_000 }),
  };
}
