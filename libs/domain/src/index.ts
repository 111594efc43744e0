/** `@latchkey/domain`: wire types and zod schemas of the Turnkey-compatible API. No I/O. */
export * from './enums.js';
export * from './common.js';
export * from './activity.js';
export * from './queries.js';
export * from './activities/create-wallet.js';
export * from './activities/wallets.js';
export * from './activities/private-keys.js';
export * from './activities/signing.js';
export * from './activities/export-import.js';
export * from './activities/users.js';
export * from './activities/credentials.js';
export * from './activities/organizations.js';
export * from './activities/login.js';
export * from './activities/oauth2.js';
export * from './activities/policies.js';
export * from './errors.js';
export * from './config.js';
