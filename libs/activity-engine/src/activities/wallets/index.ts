/** Wallets and their accounts: creation, derivation, updates, deletion, export and import. One file per kind; this list is the folder's whole registration. */
import { createWallet } from './create-wallet.js';
import { createWalletAccounts } from './create-wallet-accounts.js';
import { updateWallet } from './update-wallet.js';
import { deleteWallets } from './delete-wallets.js';
import { deleteWalletAccounts } from './delete-wallet-accounts.js';
import { exportWallet } from './export-wallet.js';
import { exportWalletAccount } from './export-wallet-account.js';
import { initImportWallet } from './init-import-wallet.js';
import { importWallet } from './import-wallet.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const WALLETS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createWallet,
  createWalletAccounts,
  updateWallet,
  deleteWallets,
  deleteWalletAccounts,
  exportWallet,
  exportWalletAccount,
  initImportWallet,
  importWallet,
];
