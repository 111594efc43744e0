/** The auth proxy's configuration. One file per kind; this list is the folder's whole registration. */
import { enableAuthProxy } from './enable-auth-proxy.js';
import { updateAuthProxyConfig } from './update-auth-proxy-config.js';
import { disableAuthProxy } from './disable-auth-proxy.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const AUTH_PROXY_ACTIVITIES: readonly TAnyActivityDefinition[] = [enableAuthProxy, updateAuthProxyConfig, disableAuthProxy];
