// The WEBHOOK_* settings: delivery on by default with public https only, off with WEBHOOKS=off,
// configuration errors said at start, and npm start's loopback allowance.
import { readConfig, withLoopback } from '../../../gateway/ops/config';
import { addressProblem } from '../../../gateway/webhooks/address-policy';

test('defaults: delivering, public https only, the system resolver, 10 s, 8 endpoints at once', () => {
    const { webhooks } = readConfig({});
    expect(webhooks).toMatchObject({ deliver: true, parallel: 8, delivery: { timeoutMs: 10_000 } });
    expect(webhooks.delivery.dnsServers).toBeUndefined();
    expect(addressProblem('127.0.0.1', 'https:', webhooks.delivery.policy)).toMatch(/loopback/);
});

test('WEBHOOKS=off, ranges, DNS servers, timeout and parallelism from the environment', () => {
    const { webhooks } = readConfig({
        WEBHOOKS: 'off',
        WEBHOOK_ALLOW: '10.20.0.0/16,private',
        WEBHOOK_DNS_SERVERS: '10.0.0.2, 127.0.0.1:5353,[::1]:53',
        WEBHOOK_TIMEOUT_SECONDS: '3',
        WEBHOOK_PARALLEL: '2',
    });
    expect(webhooks).toMatchObject({ deliver: false, parallel: 2, delivery: { timeoutMs: 3_000 } });
    expect(webhooks.delivery.dnsServers).toEqual(['10.0.0.2', '127.0.0.1:5353', '[::1]:53']);
    expect(addressProblem('192.168.1.1', 'http:', webhooks.delivery.policy)).toBeUndefined();
});

test('bad settings stop the gateway with a message', () => {
    expect(() => readConfig({ WEBHOOKS: 'maybe' })).toThrow(/WEBHOOKS must be on or off/);
    expect(() => readConfig({ WEBHOOK_ALLOW: 'everything' })).toThrow(/WEBHOOK_ALLOW: 'everything'/);
    expect(() => readConfig({ WEBHOOK_DNS_SERVERS: 'dns.example.com' })).toThrow(/WEBHOOK_DNS_SERVERS/);
    expect(() => readConfig({ WEBHOOK_TIMEOUT_SECONDS: '0' })).toThrow(/WEBHOOK_TIMEOUT_SECONDS/);
    expect(() => readConfig({ WEBHOOK_PARALLEL: '51' })).toThrow(/WEBHOOK_PARALLEL/);
});

test('npm start adds loopback to what the operator allows', () => {
    const local = withLoopback(readConfig({ WEBHOOK_ALLOW: '10.1.0.0/16' }).webhooks).delivery.policy;
    expect(addressProblem('127.0.0.1', 'http:', local)).toBeUndefined();
    expect(addressProblem('::1', 'http:', local)).toBeUndefined();
    expect(addressProblem('10.1.2.3', 'https:', local)).toBeUndefined();
    expect(addressProblem('169.254.169.254', 'http:', local)).toMatch(/linkLocal/);
});
