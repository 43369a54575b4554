// The webhook URL's shape as saved (without `URL`, which the canister's runtime lacks) and the retry schedule.
import { checkWebhookUrl, retryDelaySeconds, WEBHOOK_URL_MAX } from '../../contract/webhooks';

test.each([
    'https://example.com/hook',
    'https://hooks.example.com:8443/a/b?x=1&y=2',
    'http://127.0.0.1:3000/',
    'https://[2001:db8::1]/x',
    'HTTPS://Example.COM',
    'https://example.com.',
])('%s is a webhook URL', (url) => expect(checkWebhookUrl(url)).toBeUndefined());

test.each([
    'ftp://example.com/',
    'https://user:pw@example.com/',
    'https://user@example.com/',
    'https://example.com/#frag',
    'https://example.com/a b',
    'https:\\\\example.com',
    'https://example.com\\@evil.com/',
    'https:///path',
    'https://?x',
    'https://exa_mple.com/',
    'https://example.com:0/',
    'https://example.com:70000/',
    'https://example.com:/',
    'https://-bad.com/',
    'https://ex\u00e4mple.com/',
    'https://example.com/\u0000',
    'javascript:alert(1)',
    `https://example.com/${'a'.repeat(WEBHOOK_URL_MAX)}`,
    42,
    undefined,
])('%j is refused', (url) => expect(checkWebhookUrl(url)).toMatch(/^Invalid url: must be an https:\/\/ URL/));

test('retries wait 10 s, doubling, up to an hour', () => {
    expect([1, 2, 3, 4, 9, 10, 30, 1000].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 2560, 3600, 3600, 3600]);
});
