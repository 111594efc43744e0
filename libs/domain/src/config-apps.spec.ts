/** parseConfig: LATCHKEY_APPS, the apps `latchkey start` runs. */
import { describe, expect, it } from 'vitest';
import { APP_NAMES, parseConfig } from './config.js';

describe('parseConfig apps (LATCHKEY_APPS)', () => {
  it('runs all four apps by default', () => {
    expect(parseConfig({}).apps).toEqual([...APP_NAMES]);
    expect(parseConfig({ LATCHKEY_APPS: '' }).apps).toEqual([...APP_NAMES]);
  });

  it('takes a subset in the launch order, trimmed and without repeats', () => {
    expect(parseConfig({ LATCHKEY_APPS: ' webhook-worker , public-api,public-api' }).apps).toEqual(['public-api', 'webhook-worker']);
  });

  it.each(['public_api', 'public-api,frontend', ',', ' , '])('refuses %j, naming the variable and the allowed apps', (value) => {
    expect(() => parseConfig({ LATCHKEY_APPS: value })).toThrow(/LATCHKEY_APPS: must be a comma-separated list of public-api, auth-proxy, admin, webhook-worker/);
  });
});
