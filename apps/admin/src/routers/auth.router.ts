/** The dashboard's AUTH section: the organization's auth proxy, enabled, configured and disabled as activities. */
import {
  DISABLE_AUTH_PROXY_ACTIVITY,
  ENABLE_AUTH_PROXY_ACTIVITY,
  UPDATE_AUTH_PROXY_CONFIG_ACTIVITY,
  ZDisableAuthProxyIntentSchema,
  ZEnableAuthProxyIntentSchema,
  ZGetAuthProxyConfigRequestSchema,
  ZUpdateAuthProxyConfigIntentSchema,
  type TAuthProxyConfigWire,
} from '@latchkey/domain';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router } from '../trpc/init.js';

export const authRouter = router({
  config: engineQuery<{ authProxyConfig: TAuthProxyConfigWire }, typeof ZGetAuthProxyConfigRequestSchema>('get_auth_proxy_config', ZGetAuthProxyConfigRequestSchema),
  enable: engineSubmit(ENABLE_AUTH_PROXY_ACTIVITY, ZEnableAuthProxyIntentSchema),
  update: engineSubmit(UPDATE_AUTH_PROXY_CONFIG_ACTIVITY, ZUpdateAuthProxyConfigIntentSchema),
  disable: engineSubmit(DISABLE_AUTH_PROXY_ACTIVITY, ZDisableAuthProxyIntentSchema),
});
