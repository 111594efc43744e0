/** Sending transactions (issue 15 §2). One file per kind; this list is the folder's whole registration. */
import { ethSendTransaction } from './eth-send-transaction.js';
import { ethUndelegate7702 } from './eth-undelegate-7702.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const TRANSACTIONS_ACTIVITIES: readonly TAnyActivityDefinition[] = [ethSendTransaction, ethUndelegate7702];
