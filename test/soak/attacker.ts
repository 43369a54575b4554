// The soak's attacker: holds every credential a player or a developer of one game can get (the
// demo's public API key, a signed-in player's session, the developer's dashboard session and
// server key) and tries each on the other game. A credential of one game is worth nothing on
// another: every try must be refused.
import { anonymousId, pick, think, type Soak } from './context';
import { api } from './http';
import type { Developer } from './sign-in';

/** Refusals: a bad request, a missing or foreign credential, a game that is not yours. */
const REFUSED = [400, 401, 403, 404];

export async function attacker(s: Soak, dev: Developer, serverKey: string): Promise<void> {
    const { demo, dev: game } = s.games;
    const attempt = async (kind: string, path: string, headers: Record<string, string>, body?: unknown) => {
        const a = await api(s.rec, `attacker: ${kind}`, `${s.base}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers,
            body,
            allowed: REFUSED,
        });
        if (a?.status === 200) s.rec.fail('isolation', `attacker: ${kind} ${path} accepted: ${a.text.slice(0, 200)}`);
    };
    const submit = { playerId: anonymousId(), score: 1_000_000, streak: 1 };
    while (s.running()) {
        await think(3000, 6000);
        if (!s.running()) break;
        const session = [...s.sessions].find(([key]) => key.startsWith(`${game.id}\n`))?.[1];
        await pick([
            () => attempt('key in body', '/scores', { 'X-API-Key': demo.key }, { ...submit, gameId: game.id }),
            () => attempt('key with game id', '/scores', { 'X-API-Key': demo.key, 'X-Game-ID': game.id }, submit),
            () => attempt('key on path', `/games/${game.id}/scoreboards/all-time`, { 'X-API-Key': demo.key }),
            () =>
                attempt(
                    'server key',
                    '/scores',
                    { Authorization: `Bearer ${serverKey}`, 'X-Game-ID': demo.id },
                    submit,
                ),
            () =>
                attempt('dashboard', `/dashboard/api/games/${demo.id}/boards/all-time/entries`, {
                    Cookie: dev.headers.Cookie,
                }),
            ...(session === undefined
                ? []
                : [
                      () =>
                          attempt(
                              'session',
                              '/scores',
                              { ...session, 'X-Game-ID': demo.id },
                              { ...submit, gameId: demo.id },
                          ),
                  ]),
        ])();
    }
}
