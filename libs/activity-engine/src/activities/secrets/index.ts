/** Opaque secrets (issue 16 §6). One file per kind; this list is the folder's whole registration. */
import { initImportSecrets } from './init-import-secrets.js';
import { importSecrets } from './import-secrets.js';
import { exportSecrets } from './export-secrets.js';
import { deleteSecrets } from './delete-secrets.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const SECRETS_ACTIVITIES: readonly TAnyActivityDefinition[] = [initImportSecrets, importSecrets, exportSecrets, deleteSecrets];
