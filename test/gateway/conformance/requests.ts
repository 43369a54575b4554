// What conformance cases send: headers, requests, and setup steps (more games, dashboard actions, clock moves, sign-in).
import type { GameStep, CaseRequest, Expectation, SendStep, AdvanceStep, AdminStep, Step } from './harness';
import { SUBMITTED } from './answers';

/** The case's game, by its API key. */
export const H = { 'X-API-Key': '$KEY', 'X-Game-ID': '$GAME' };
export const H2 = { 'X-API-Key': '$KEY2', 'X-Game-ID': '$GAME2' };
/** An old plugin: the API key without X-Game-ID. */
export const OLD_PLUGIN = { 'X-API-Key': '$KEY' };
/** The second game of a case (`$GAME2`, `$KEY2`). */
export const GAME2: GameStep = { game: 'GAME2', key: 'KEY2' };

export const get = (path: string, headers: Record<string, string> = H): CaseRequest => ({
    method: 'GET',
    path,
    headers,
});
export const post = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'POST',
    path,
    headers,
    body,
});
export const put = (path: string, body: unknown, headers: Record<string, string> = H): CaseRequest => ({
    method: 'PUT',
    path,
    headers,
    body,
});
/** A POST /scores; the body's gameId is the game of the headers unless the body names one. */
export const score = (body: Record<string, unknown>, headers: Record<string, string> = H): CaseRequest =>
    post('/scores', { gameId: headers['X-Game-ID'] ?? '$GAME', ...body }, headers);

/** A setup request that must succeed (or answer `expected`). */
export const send = (request: CaseRequest, expected?: Expectation, capture?: Record<string, string>): SendStep => ({
    send: request,
    expect: expected,
    capture,
});
/** A setup submit that must be accepted. */
export const submit = (body: Record<string, unknown>, headers: Record<string, string> = H): SendStep =>
    send(score(body, headers), SUBMITTED);
/** A setup submit that must be refused with `expected`. */
export const refused = (
    body: Record<string, unknown>,
    expected: Expectation,
    headers: Record<string, string> = H,
): SendStep => send(score(body, headers), expected);
export const captureName = (playerId: string, name: string): SendStep =>
    send(get(`/players/${playerId}/profile`), undefined, { [name]: 'data.nickname' });
export const wait = (seconds: number): AdvanceStep => ({ advance: seconds });
/** Out of the 2 s rate-limit window and the few seconds in which an exact repeat is no new play. */
export const SPACED = wait(6);

export const LEVEL_1: AdminStep = {
    admin: 'admin_create_board',
    request: { gameId: '$GAME', scoreboardId: 'level-1', type: 'targeted', name: 'Level 1' },
};
export const CAPS: AdminStep = { admin: 'admin_set_caps', request: { gameId: '$GAME', maxScore: 1000, maxStreak: 50 } };

export const SOME_SESSION = { 'X-Session-Token': 'sess_0123456789abcdef', 'X-Game-ID': '$GAME' };

// ---- player sign-in ----------------------------------------------------------------------------------

export const GAME_ONLY = { 'X-Game-ID': '$GAME' };
export const SESSION = { 'X-Session-Token': '$SESSION', 'X-Game-ID': '$GAME' };
/** Starts a device code for the case's game: `$DEVICE` and `$USER_CODE`. */
export const startCode = (nickname?: string): SendStep =>
    send(post('/auth/device/code', nickname === undefined ? {} : { nickname }, GAME_ONLY), undefined, {
        DEVICE: 'data.device_code',
        USER_CODE: 'data.user_code',
    });
/**
 * The link page's part, as a gateway does it once an identity provider vouched for the player
 * (the browser flow itself is test/local/link-flow.test.ts).
 */
export const approve = (who: string): AdminStep => ({
    admin: 'device_code_approve',
    request: {
        userCode: '$USER_CODE',
        client: 'conformance',
        identity: {
            issuer: 'https://idp.conformance.test',
            subject: `${who}-$T`,
            email: `${who}@example.com`,
            provider: 'local',
        },
    },
});
export const redeem = (capture = 'SESSION'): SendStep =>
    send(post('/auth/device/token', { device_code: '$DEVICE' }, GAME_ONLY), undefined, { [capture]: 'data.sessionId' });
/** A signed-in player of the case's game: `$SESSION`. */
export const SIGNED_IN: readonly Step[] = [startCode('Signed$T'), approve('ada'), redeem()];
