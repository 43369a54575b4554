// The client's direct reads on the stack `npm start` runs (a directory and a shard): configured
// with the directory's canister URL, a read of a game on the shard follows the directory's 302,
// and `verify: true` checks the answer against the canister that gave it (the shard), so it
// passes unchanged and fails loudly when a relay on the way changes one byte.
import { LeaderboardError, type ClientOptions } from '../../client/src';
import { localClient } from '../support/client';
import { startService, type TestService } from '../support/gateway';
import { startRelay } from '../support/relay';

let s: TestService;
let key: string;
const GAME = 'sharded-client';

beforeAll(async () => {
    s = await startService({ shards: 1, canisterUrl: true });
    key = await s.game(GAME);
}, 600_000);
afterAll(() => s?.stop());

const client = (o: Partial<ClientOptions> = {}) => localClient(s, key, GAME, o);

test('a verified read at the directory is checked against the shard that answered it', async () => {
    const c = client();
    await c.submitScore({ score: 640 });
    expect((await s.canisterOf(GAME)).toText()).toBe(s.shards[0]);
    expect(await c.direct.board('all-time', { limit: 10, verify: true })).toEqual(
        await c.board('all-time', { limit: 10 }),
    );
    expect(await c.direct.boards({ verify: true })).toEqual(await c.boards());
});

test("a relay that changes one byte of the shard's answer: not-verified", async () => {
    const relay = await startRelay(s.replica.url);
    try {
        const shard = s.shards[0];
        // The directory's 302, kept on the relay (as a proxy in front of both canisters would).
        relay.decide = (req) =>
            req.url?.includes(`canisterId=${s.canisterId.toText()}`)
                ? {
                      kind: 'answer',
                      status: 302,
                      body: '',
                      headers: { location: `${relay.url}${req.url.split('?')[0]}?canisterId=${shard}` },
                  }
                : { kind: 'pass' };
        const c = client({ canisterUrl: `${relay.url}/?canisterId=${s.canisterId.toText()}` });
        await c.submitScore({ score: 700 });
        expect((await c.direct.board('all-time', { verify: true })).entries.length).toBeGreaterThan(0);
        relay.alter = (url, body) =>
            url.startsWith('/games/') ? Buffer.from(body.toString().replace('"score":700', '"score":100')) : body;
        const e = await c.direct.board('all-time', { verify: true }).then(
            () => undefined,
            (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(LeaderboardError);
        expect((e as LeaderboardError).kind).toBe('not-verified');
        expect((e as LeaderboardError).message).toContain(relay.url);
    } finally {
        await relay.close();
    }
});
