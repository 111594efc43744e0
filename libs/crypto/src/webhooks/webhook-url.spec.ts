/** Where a webhook may go: form rules, address classes (IPv4, IPv6, embedded IPv4), resolution. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAddress, parseWebhookUrl, readAllowInsecureWebhookUrls, resolveWebhookDestination, WebhookUrlError } from './webhook-url.js';

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };
const reasonOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof WebhookUrlError ? e.reason : String(e);
  }
  return 'accepted';
};

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', null],
    ['2606:4700:4700::1111', null],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', null],
    ['192.168.1.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['169.254.169.254', 'cloud-metadata'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud-metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', null],
    ['255.255.255.255', 'reserved'],
  ])('%s → %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('classifies an IPv4 address and its IPv4-mapped form alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(classifyAddress(`::ffff:${v4}`)).toBe(classifyAddress(v4));
      }),
    );
  });
});

describe('parseWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/x', 'accepted', 'accepted'],
    ['http://hooks.example.com/x', 'SCHEME', 'accepted'],
    ['ftp://hooks.example.com/x', 'SCHEME', 'SCHEME'],
    ['https://u:p@hooks.example.com/x', 'USERINFO', 'USERINFO'],
    ['https://hooks.example.com/x#frag', 'FRAGMENT', 'FRAGMENT'],
    ['https://hooks.example.com/x#', 'FRAGMENT', 'FRAGMENT'],
    ['not a url', 'MALFORMED', 'MALFORMED'],
    ['https://127.0.0.1/x', 'DESTINATION', 'accepted'],
    ['https://[::ffff:7f00:1]/x', 'DESTINATION', 'accepted'],
    ['http://169.254.169.254/latest/meta-data', 'SCHEME', 'DESTINATION'],
    ['https://169.254.169.254/latest/meta-data', 'DESTINATION', 'DESTINATION'],
  ])('%s: %s, with the switch %s', (url, withoutSwitch, withSwitch) => {
    expect(reasonOf(() => parseWebhookUrl(url, strict))).toBe(withoutSwitch);
    expect(reasonOf(() => parseWebhookUrl(url, insecure))).toBe(withSwitch);
  });

  it('names the switch when refusing a private destination', () => {
    expect(() => parseWebhookUrl('https://10.0.0.5/hook', strict)).toThrow(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS=true/);
  });
});

describe('resolveWebhookDestination', () => {
  const resolver = (addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('answers the first address of a public name', async () => {
    expect(await resolveWebhookDestination('https://hooks.example.com/x', { ...strict, resolve: resolver(['93.184.215.14', '2606:2800::1']) })).toMatchObject({ address: '93.184.215.14', family: 4 });
  });

  it('refuses a name of which any address is private, unless the switch is on', async () => {
    const resolve = resolver(['93.184.215.14', '10.0.0.7']);
    await expect(resolveWebhookDestination('https://rebind.example.com/x', { ...strict, resolve })).rejects.toMatchObject({ reason: 'DESTINATION' });
    expect(await resolveWebhookDestination('https://rebind.example.com/x', { ...insecure, resolve })).toMatchObject({ address: '93.184.215.14' });
  });

  it('refuses a name that does not resolve', async () => {
    const resolve = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(resolveWebhookDestination('https://nx.example.invalid/x', { ...strict, resolve })).rejects.toMatchObject({ reason: 'UNRESOLVABLE' });
  });

  it('resolves localhost through the system resolver to a refused loopback', async () => {
    await expect(resolveWebhookDestination('https://localhost/x', strict)).rejects.toMatchObject({ reason: 'DESTINATION' });
  });
});

describe('readAllowInsecureWebhookUrls', () => {
  it('reads true/false and names the variable otherwise', () => {
    expect(readAllowInsecureWebhookUrls({})).toBe(false);
    expect(readAllowInsecureWebhookUrls({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'TRUE' })).toBe(true);
    expect(readAllowInsecureWebhookUrls({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: '0' })).toBe(false);
    expect(() => readAllowInsecureWebhookUrls({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'yes' })).toThrow(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS must be true or false/);
  });
});
