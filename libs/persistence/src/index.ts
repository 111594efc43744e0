/**
 * @latchkey/persistence — the only importer of Prisma. PostgreSQL everywhere: embedded by
 * default, external through DATABASE_URL; SQL migrations with a checksum-checking runner;
 * one repository per aggregate; the outbox.
 */
export { openDatabase, isUniqueViolation, type TDatabase, type TDb, type TPoolStats, type TSql } from './database.js';
export { startEmbeddedPostgres, copyClusterTemplate, findRunningEmbeddedPostgres, freePort, isProcessAlive, type TEmbeddedPostgres, type TEmbeddedPostgresOptions } from './embedded/start-embedded-postgres.js';
export { runMigrations, loadMigrations, defaultMigrationsDir, type TMigration, type TMigrationReport } from './migrations/run-migrations.js';
export { installationStore, type TInstallationRepositories, type TInstallationStore } from './repositories/installation-repository.js';
export { createStore, CHANGE_CHANNEL, type TStore, type TRepositories, type TChangeTopic } from './store.js';
export { startChangeFeed, type TChangeFeed } from './change-feed.js';
export { planPage, finishPage, type TPageRequest, type TSortDirection } from './pagination.js';
export { processOutboxBatch, type TOutboxEvent, type TOutboxOutcome } from './repositories/outbox-repository.js';
export { readOutboxBacklog, type TOutboxBacklog } from './repositories/outbox-backlog.js';
export type { TAccountKeySource, TNewWallet, TNewWalletAccount } from './repositories/wallet-repository.js';
export { newWalletStatementRows } from './repositories/wallet-repository.js';
export type { TNewActivity, TStatementRows } from './repositories/activity-repository.js';
export type { TNewPrivateKey, TPrivateKeyRecord, TSigningKeyRow } from './repositories/private-key-repository.js';
export type { TImportKind } from './repositories/import-target-repository.js';
export type { TSubOrganizationFilter } from './repositories/organization-repository.js';
export type { TNewOtpRecord, TNewSession } from './repositories/login-repository.js';
export type { TNewPolicy, TPolicyChanges } from './repositories/policy-repository.js';
export type { TAuthProxyConfigRow, TAuthProxyEnable } from './repositories/auth-proxy-config-repository.js';
export type { TIpAllowlistRow, TIpAllowlistRule } from './repositories/ip-allowlist-repository.js';
export type { TSmartContractInterfaceRow } from './repositories/smart-contract-interface-repository.js';
export type { TReadOnlySessionRow, TSessionProfileRow } from './repositories/session-profile-repository.js';
export type { TActivityMfaRow, TMfaPolicyRow, TMfaSatisfiedRow, TMfaStepRow } from './repositories/mfa-policy-repository.js';
export type { TTvcAppRow, TTvcApprovalRow, TTvcDeploymentRow, TTvcManifestRow, TTvcOperatorRow, TTvcOperatorSetRow } from './repositories/tvc-repository.js';
export type { TSecretMetadataRow, TSecretRow, TSecretStaticProperty } from './repositories/secret-repository.js';
export type { TInvitationRow } from './repositories/invitation-repository.js';
export type { TEmailEventRow } from './repositories/email-event-repository.js';
export { formatUsdMicros, type TGasRelayerRow, type TGasUsageConfigRow } from './repositories/gas-repository.js';
export { SEND_STATUS_EVENT_TYPE, pendingSends, recordSendOutcome, sendStatusEvent, type TSendError, type TSendOutcome, type TSendRow, type TSendStatus } from './repositories/send-transaction-repository.js';
export type {
  Activity,
  ApiKey,
  Authenticator,
  Organization,
  OrganizationFeature,
  User,
  Vote,
  Wallet,
  WalletAccount,
  ServerKey,
  PrivateKey,
  PrivateKeyTag,
  OtpRecord,
  OauthProvider,
  Policy,
  PolicyEvaluation,
  RootQuorumMember,
} from './generated/prisma/client.js';
export * from './webhooks/index.js';
export { verifyAuditChains, type TAuditBreak, type TAuditBreakReason, type TAuditOrgReport, type TAuditVerifyOptions } from './audit/audit-chain.js';
export { canonicalActivityBytes, canonicalJson, nextAuditHash, AUDIT_GENESIS_HASH, AUDITED_STATUSES, type TAuditedActivity } from './audit/canonical-activity.js';
export { adminOverviewRepository, type TAdminOverviewRepository, type TActivityHourBucket, type TOrganizationCounts, type TSubOrganizationRow } from './repositories/admin-overview-repository.js';
