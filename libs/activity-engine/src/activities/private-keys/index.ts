/** Private keys and their tags: creation, deletion, export and import. One file per kind; this list is the folder's whole registration. */
import { createPrivateKeys } from './create-private-keys.js';
import { deletePrivateKeys } from './delete-private-keys.js';
import { createPrivateKeyTag } from './create-private-key-tag.js';
import { updatePrivateKeyTag } from './update-private-key-tag.js';
import { deletePrivateKeyTags } from './delete-private-key-tags.js';
import { exportPrivateKey } from './export-private-key.js';
import { initImportPrivateKey } from './init-import-private-key.js';
import { importPrivateKey } from './import-private-key.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const PRIVATE_KEYS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createPrivateKeys,
  deletePrivateKeys,
  createPrivateKeyTag,
  updatePrivateKeyTag,
  deletePrivateKeyTags,
  exportPrivateKey,
  initImportPrivateKey,
  importPrivateKey,
];
