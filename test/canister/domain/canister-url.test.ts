// A redirect's Location for each form of canister address the request can come in with, and
// nothing of the request's Host or path that could lead off the canister URL pattern.
import { canisterAddress, carriedQuery, urlAt } from '../../../canister/domain/canister-url';

const SHARD = 'bkyz2-fmaaa-aaaaa-qaaaq-cai';
const DIR = 'bd3sg-teaaa-aaaaa-qaaba-cai';
const BOARD = ['games', 'g-1', 'scoreboards', 'all-time'];

const location = (host: string | undefined, raw = false, query = ''): string =>
    urlAt(canisterAddress(host, SHARD, raw), BOARD, query);

test('the IC domains keep their domain, with the raw label when the request had it', () => {
    expect(location(`${DIR}.icp0.io`)).toBe(`https://${SHARD}.icp0.io/games/g-1/scoreboards/all-time`);
    expect(location(`${DIR}.raw.icp0.io`, true)).toBe(`https://${SHARD}.raw.icp0.io/games/g-1/scoreboards/all-time`);
    expect(location(`${DIR}.ic0.app`, false, 'limit=10')).toBe(
        `https://${SHARD}.ic0.app/games/g-1/scoreboards/all-time?limit=10`,
    );
    expect(location(`${DIR}.RAW.IC0.APP`, true)).toBe(`https://${SHARD}.raw.ic0.app/games/g-1/scoreboards/all-time`);
});

test('the local replica: `<id>.localhost:<port>` and the `?canisterId=` form on 127.0.0.1, localhost, [::1]', () => {
    expect(location(`${DIR}.localhost:4943`)).toBe(`http://${SHARD}.localhost:4943/games/g-1/scoreboards/all-time`);
    expect(location(`${DIR}.raw.localhost:4943`, true)).toBe(
        `http://${SHARD}.raw.localhost:4943/games/g-1/scoreboards/all-time`,
    );
    expect(location('127.0.0.1:4943', false, 'limit=10&offset=20')).toBe(
        `http://127.0.0.1:4943/games/g-1/scoreboards/all-time?canisterId=${SHARD}&limit=10&offset=20`,
    );
    expect(location('localhost:8000')).toBe(`http://localhost:8000/games/g-1/scoreboards/all-time?canisterId=${SHARD}`);
    expect(location('[::1]:4943')).toBe(`http://[::1]:4943/games/g-1/scoreboards/all-time?canisterId=${SHARD}`);
});

test('any other host (custom domain, none, junk) gets the canister on icp0.io: the Host never leads elsewhere', () => {
    for (const host of [
        undefined,
        '',
        'leaderboard.example.com',
        'evil.com',
        'evil.com:4943',
        `${DIR}.icp0.io.evil.com`,
        'icp0.io',
        `${DIR}.icp0.io:444`,
        'evil.com/x.localhost:1',
        '127.0.0.1:99999',
        '127.0.0.1',
        '127.0.0.1:80@evil.com',
        `${DIR}.localhost`,
        'a\r\nb.icp0.io',
    ])
        expect(new URL(location(host)).host).toBe(`${SHARD}.icp0.io`);
    expect(location('evil.com', true)).toBe(`https://${SHARD}.raw.icp0.io/games/g-1/scoreboards/all-time`);
});

test('segments are encoded one by one: no slash, dot segment escape, query or userinfo of their own', () => {
    for (const segment of ['a/../../x', '..', '@evil.com', '?x=1#y', '\\\\evil.com', '%2F', 'a b', '\uD800'] as const) {
        const url = new URL(urlAt(canisterAddress('127.0.0.1:4943', SHARD, false), ['archives', segment], ''));
        expect(url.origin).toBe('http://127.0.0.1:4943');
        expect(url.searchParams.get('canisterId')).toBe(SHARD);
        expect(url.hash).toBe('');
    }
});

test('the carried query drops canisterId pairs and encodes what a URL may not hold', () => {
    expect(carriedQuery('limit=10&canisterId=evil&CANISTERID=x&offset=5')).toBe('limit=10&offset=5');
    expect(carriedQuery('a=1 2&b="x"\r\nLocation: evil')).toBe('a=1%202&b=%22x%22%0D%0ALocation:%20evil');
    expect(carriedQuery('')).toBe('');
    expect(carriedQuery('&&limit=1&')).toBe('limit=1');
});
