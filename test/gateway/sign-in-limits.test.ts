// The sign-in limits through the HTTP API, with client addresses named by X-Forwarded-For
// behind a trusted proxy: wrong codes from many addresses never lock out a valid code (new
// codes grow longer instead), one address cannot take a game's device codes from other
// players, addresses are counted as the gateway normalises them (IPv6 by /64, IPv4-mapped IPv6
// as IPv4; codes per client only for public addresses), and the link page names the game by
// name and ID.
import { clientAddress, publicClientAddress } from '../../gateway/http/client-address';
import { csrfToken } from '../../gateway/http/csrf';
import { startService, type TestService } from '../support/gateway';

let s: TestService & { signIn: { publicUrl: string; secret: Uint8Array } };
const GAME = 'limits-game';
const from = (address: string) => ({ 'X-Game-ID': GAME, 'X-Forwarded-For': address });
const start = (address: string) => s.request('POST', '/auth/device/code', { headers: from(address), body: {} });
const linkPage = (code: string, address: string) =>
    s.request('GET', `/link?code=${encodeURIComponent(code)}`, { headers: { 'X-Forwarded-For': address } });

beforeAll(async () => {
    s = await startService({ trustProxy: true });
    await s.game(GAME);
});
afterAll(() => s.stop());

test('one client address flooding device codes (rotating inside its /64) cannot deny another player of the game', async () => {
    const flood = await Promise.all(
        Array.from({ length: 10 }, (_, i) => start(`2001:db8:1:2::${(i + 1).toString(16)}`)),
    );
    expect(flood.map((r) => r.status)).toEqual(new Array(10).fill(200));
    expect(await start('2001:db8:1:2:ffff:ffff:ffff:ffff')).toMatchObject({
        status: 503,
        body: { ok: false, error: 'Too many pending device authorizations. Try again shortly.' },
    });
    const other = await start('2001:db8:1:3::1'); // the next /64: another household
    expect(other.status).toBe(200);
    expect(other.body.data.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    // An IPv4-mapped IPv6 address is the IPv4 client it maps.
    const mapped = await Promise.all(
        Array.from({ length: 10 }, (_, i) => start(i % 2 === 0 ? '::ffff:198.51.100.7' : '198.51.100.7')),
    );
    expect(mapped.map((r) => r.status)).toEqual(new Array(10).fill(200));
    expect((await start('198.51.100.7')).status).toBe(503);
});

test('wrong codes from many addresses never lock out a valid code; the guessers are refused and new codes are longer', async () => {
    const before = (await start('192.0.2.1')).body.data.user_code as string;
    const guesses: Array<Promise<number>> = [];
    for (let c = 0; c < 61; c++)
        for (let i = 0; i < 10; i++) guesses.push(linkPage('BCDF-GHJK', `10.0.${c}.1`).then((r) => r.status));
    expect(new Set(await Promise.all(guesses))).toEqual(new Set([404]));
    // A fresh client opens and approves a valid code.
    const confirm = await linkPage(before, '192.0.2.1');
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(before);
    expect(
        await s.canister.call('device_code_approve', {
            userCode: before,
            client: '192.0.2.1',
            identity: { issuer: 'https://idp.test', subject: 'fresh', email: 'f@example.com', provider: 'local' },
        }),
    ).toEqual({ ok: { gameId: GAME, gameName: `Game ${GAME}` } });
    // The guessing addresses are refused for now, even with a valid code.
    const later = (await start('192.0.2.2')).body.data as { user_code: string; verification_url_complete: string };
    expect(later.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/); // 16 letters while codes are guessed
    expect((await linkPage(later.user_code, '10.0.0.1')).status).toBe(429);
    const long = await linkPage(later.user_code.toLowerCase(), '192.0.2.2');
    expect(long.status).toBe(200);
    expect(long.text).toContain(later.user_code);
});

test('the link page names the game by its name and its ID (names are not unique)', async () => {
    const code = (await start('192.0.2.3')).body.data.user_code as string;
    const confirm = await linkPage(code, '192.0.2.3');
    expect(confirm.text).toContain(`<h1>Sign in to Game ${GAME} (${GAME})</h1>`);
    expect(confirm.text).toContain(`<title>Sign in to Game ${GAME} (${GAME})`);
});

test('client addresses: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 by /64, anything else unknown', () => {
    expect(clientAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientAddress('::FFFF:cb00:7109')).toBe('203.0.113.9');
    expect(clientAddress('2001:DB8:a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(clientAddress('2001:db8:a:b::99')).toBe('2001:db8:a:b::/64');
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress(undefined)).toBe('unknown');
    expect(clientAddress('not an address')).toBe('unknown');
    // Codes are capped per client only for addresses of someone on the internet: a local or
    // private one is a proxy (TRUST_PROXY unset) or a LAN, where a per-client cap would cap everyone.
    for (const local of ['127.0.0.1', '::1', '::ffff:10.1.2.3', '192.168.0.10', '100.64.1.1', 'fd00::1', 'fe80::1%lo'])
        expect({ local, client: publicClientAddress(local) }).toEqual({ local, client: undefined });
    expect(publicClientAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(publicClientAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(publicClientAddress('2001:db8:a:b::99')).toBe('2001:db8:a:b::/64');
    expect(publicClientAddress(undefined)).toBeUndefined();
});

test('the link page form needs the token bound to its own cookie: a cookie with another token, or another origin, is refused', async () => {
    const code = (await start('192.0.2.44')).body.data.user_code as string;
    const page = await linkPage(code, '192.0.2.44');
    expect(page.status).toBe(200);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    // The page's forms carry this token (one per identity provider; none are configured here).
    const token = csrfToken(s.signIn.secret, 'link', cookie.slice(cookie.indexOf('=') + 1));
    const post = (csrf: string, extra: Record<string, string> = {}) =>
        s.request('POST', '/link/start', {
            headers: {
                'Content-Type': 'application/x-www-form-urlencoded',
                Cookie: cookie,
                'X-Forwarded-For': '192.0.2.44',
                ...extra,
            },
            raw: new URLSearchParams({ code, provider: 'no-such-provider', csrf }).toString(),
        });
    // The right token passes the check (and meets the provider check behind it); others do not.
    expect((await post(token)).status).toBe(400);
    expect((await post(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).status).toBe(403);
    expect((await post('')).status).toBe(403);
    expect((await post(token, { Origin: 'https://evil.example' })).status).toBe(403);
});
