// One delivery against real receivers: signed and labelled, refused addresses never connected
// to (IP literals and names resolved by a real DNS server), no redirects, bounded time and size.
import type { GameEvent } from '../../../contract/events';
import { parseAllow, STRICT_POLICY } from '../../../gateway/webhooks/address-policy';
import { deliverEvent, NAME_REFUSED, USER_AGENT } from '../../../gateway/webhooks/deliver';
import { verifySignature } from '../../../gateway/webhooks/signature';
import { startDns, startReceiver, type Receiver, type TestDns } from '../../support/webhook-receiver';

const SECRET = 'whsec_' + 'k'.repeat(43);
const event = {
    id: 'evt_g1_7',
    seq: 7,
    gameId: 'g1',
    kind: 'player_banned',
    at: 1_700_000_000_000_000_000,
    playerId: 'p1',
} as unknown as GameEvent;
const loopback = parseAllow('loopback');

let receiver: Receiver;
let dns: TestDns;
beforeEach(async () => {
    receiver = await startReceiver();
    dns = await startDns({ 'hooks.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'] });
});
afterEach(async () => {
    await receiver.close();
    await dns.close();
});

test('a 2xx delivery: a signed JSON POST with the event id, kind and user agent', async () => {
    const attempt = await deliverEvent(receiver.url, SECRET, event, { policy: loopback });
    expect(attempt).toMatchObject({ eventId: 'evt_g1_7', kind: 'player_banned', status: 200 });
    expect(attempt.error).toBeUndefined();
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    const [got] = receiver.received;
    expect(got!.event).toEqual(event);
    expect(got!.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-event-id': 'evt_g1_7',
        'x-event-kind': 'player_banned',
    });
    expect(
        verifySignature(SECRET, got!.headers['x-signature'] as string, got!.body, Date.now() / 1000),
    ).toBeUndefined();
    expect(verifySignature('whsec_wrong', got!.headers['x-signature'] as string, got!.body, Date.now() / 1000)).toBe(
        'signature mismatch',
    );
});

test('a non-2xx answer is a failure with its status', async () => {
    receiver.answer = 500;
    expect(await deliverEvent(receiver.url, SECRET, event, { policy: loopback })).toMatchObject({
        status: 500,
        error: 'the endpoint answered 500',
    });
});

test('redirects are not followed', async () => {
    const other = await startReceiver();
    receiver.answer = (_req, res) => res.writeHead(307, { Location: other.url }).end();
    expect(await deliverEvent(receiver.url, SECRET, event, { policy: loopback })).toMatchObject({
        status: 307,
        error: 'redirects are not followed',
    });
    expect(other.connections).toBe(0);
    await other.close();
});

test('an IP literal outside the policy is refused before any connection', async () => {
    const attempt = await deliverEvent(receiver.url, SECRET, event, { policy: STRICT_POLICY });
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toMatch(/address 127\.0\.0\.1 is loopback: webhooks may reach public addresses only/);
    const mapped = await deliverEvent(`https://[::ffff:127.0.0.1]:${receiver.port}/`, SECRET, event, {
        policy: STRICT_POLICY,
    });
    expect(mapped.error).toMatch(/is loopback/);
    expect(receiver.connections).toBe(0);
});

test('a name is judged by the address it resolves to, and only that address is connected to', async () => {
    const logged: string[] = [];
    const o = { policy: STRICT_POLICY, dnsServers: [dns.server], log: (line: string) => logged.push(line) };
    const refused = await deliverEvent(`https://hooks.test:${receiver.port}/hook`, SECRET, event, o);
    // The developer learns that the address is not allowed, never which it is (an internal DNS oracle otherwise).
    expect(refused.error).toBe(`hooks.test: ${NAME_REFUSED}`);
    const metadata = await deliverEvent(`https://metadata.test/latest`, SECRET, event, o);
    expect(metadata.error).toBe(`metadata.test: ${NAME_REFUSED}`);
    // The gateway's own log keeps what it refused.
    expect(logged).toEqual([
        expect.stringMatching(/hooks\.test: address 127\.0\.0\.1 is loopback/),
        expect.stringMatching(/metadata\.test: address 169\.254\.169\.254 is linkLocal/),
    ]);
    expect(receiver.connections).toBe(0);
    expect(dns.queries).toContain('hooks.test');
    // Allowed by the operator: the same name now delivers (over http too).
    const allowed = await deliverEvent(`http://hooks.test:${receiver.port}/hook`, SECRET, event, {
        ...o,
        policy: loopback,
    });
    expect(allowed).toMatchObject({ status: 200 });
    // Rebinding: the name turns private; refused at this delivery, no connection made.
    dns.names.set('hooks.test', ['10.0.0.7']);
    const rebound = await deliverEvent(`http://hooks.test:${receiver.port}/hook`, SECRET, event, {
        ...o,
        policy: loopback,
    });
    expect(rebound.error).toBe(`hooks.test: ${NAME_REFUSED}`);
    expect(logged[2]).toMatch(/address 10\.0\.0\.7 is private/);
    expect(receiver.connections).toBe(1);
});

test('a name with allowed and refused addresses connects only to the allowed ones', async () => {
    dns.names.set('mixed.test', ['10.0.0.9', '169.254.169.254', '127.0.0.1']);
    const attempt = await deliverEvent(`http://mixed.test:${receiver.port}/hook`, SECRET, event, {
        policy: loopback,
        dnsServers: [dns.server],
    });
    expect(attempt).toMatchObject({ status: 200 });
    expect(receiver.connections).toBe(1);
});

test('a name that does not resolve is a failure in words', async () => {
    const attempt = await deliverEvent('https://nowhere.test/', SECRET, event, {
        policy: STRICT_POLICY,
        dnsServers: [dns.server],
    });
    expect(attempt.error).toMatch(/nowhere\.test does not resolve/);
});

test('a receiver that holds the request cannot hold the delivery past its timeout', async () => {
    receiver.answer = () => undefined; // never answers
    const attempt = await deliverEvent(receiver.url, SECRET, event, { policy: loopback, timeoutMs: 300 });
    expect(attempt).toMatchObject({ error: 'no answer within 0.3 s' });
    expect(attempt.status).toBeUndefined();
});

test('a 200 whose body never ends, or is huge, is cut and still counts as delivered', async () => {
    receiver.answer = (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('x'.repeat(1000)); // and never ends
    };
    // A timeout long enough for the headers on a slow machine: it only has to end the body.
    expect(await deliverEvent(receiver.url, SECRET, event, { policy: loopback, timeoutMs: 3_000 })).toMatchObject({
        status: 200,
    });
    receiver.answer = (_req, res) => {
        res.writeHead(200);
        const chunk = 'y'.repeat(64 * 1024);
        const pump = (): void => {
            while (res.write(chunk));
            res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
    };
    // No timeout to save it here: only the size cap ends this one.
    const huge = await deliverEvent(receiver.url, SECRET, event, {
        policy: loopback,
        maxAnswerBytes: 128 * 1024,
        timeoutMs: 600_000,
    });
    expect(huge).toMatchObject({ status: 200 });
    expect(huge.error).toBeUndefined();
});

test('a port nobody listens on is a failure, not a throw', async () => {
    const port = receiver.port;
    await receiver.close();
    const attempt = await deliverEvent(`http://127.0.0.1:${port}/`, SECRET, event, { policy: loopback });
    expect(attempt.error).toMatch(/ECONNREFUSED/);
    receiver = await startReceiver();
});
