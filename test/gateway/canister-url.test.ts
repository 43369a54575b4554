// GET /game's canisterUrl: a game's own canister in the form of the gateway's {canister_url}.
import { canisterUrlFor } from '../../gateway/ic/canister-url';
import { readConfig } from '../../gateway/ops/config';

const DIR = 'be2us-64aaa-aaaaa-qaabq-cai';
const SHARD = 'bkyz2-fmaaa-aaaaa-qaaaq-cai';

test('the same form as the directory URL, its id replaced', () => {
    expect(canisterUrlFor(`https://${DIR}.icp0.io`, DIR, SHARD)).toBe(`https://${SHARD}.icp0.io`);
    expect(canisterUrlFor(`https://${DIR}.raw.icp0.io`, DIR, SHARD)).toBe(`https://${SHARD}.raw.icp0.io`);
    expect(canisterUrlFor(`http://127.0.0.1:4943/?canisterId=${DIR}`, DIR, SHARD)).toBe(
        `http://127.0.0.1:4943/?canisterId=${SHARD}`,
    );
    expect(canisterUrlFor(`http://${DIR}.localhost:4943`, DIR, SHARD)).toBe(`http://${SHARD}.localhost:4943`);
    // A custom domain names no canister: the game's canister on icp0.io.
    expect(canisterUrlFor('https://scores.example.com', DIR, SHARD)).toBe(`https://${SHARD}.icp0.io`);
});

test('CANISTER_URL, else the canister on icp0.io in production; never a non-http URL', () => {
    const remote = { IC_HOST: 'https://icp-api.io', CANISTER_ID: DIR, GATEWAY_IDENTITY_PEM: 'x' };
    expect(readConfig(remote).canisterUrl).toBe(`https://${DIR}.icp0.io`);
    expect(readConfig({ ...remote, CANISTER_URL: `https://${DIR}.ic0.app` }).canisterUrl).toBe(
        `https://${DIR}.ic0.app`,
    );
    expect(readConfig({}).canisterUrl).toBeUndefined();
    expect(() => readConfig({ ...remote, CANISTER_URL: 'javascript:alert(1)' })).toThrow(/CANISTER_URL/);
});
