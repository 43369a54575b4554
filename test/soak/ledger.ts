// What the soak's players were told was written (acknowledged submits, nicknames,
// achievements) and what may have been written without their knowing (a write whose answer
// never came, or came as a 5xx), and the check at the end that the service has exactly that.

/** How a write ended for its sender. */
export type Outcome = 'acked' | 'refused' | 'unknown';

interface Submit {
    score: number;
    outcome: Outcome;
    /** Wall-clock ms when it was sent and when its answer came (real clock, as the canister's). */
    sentAt: number;
    answeredAt: number;
}

export interface PlayerKey {
    gameId: string;
    /** The player as the soak knows it: the anonymous id, or `session:<n>` for a signed-in player. */
    player: string;
}

/** A board's ranking: highest first keeps the highest score, lowest first the lowest. */
export type Order = 'desc' | 'asc';

export interface Ledger {
    submit(p: PlayerKey, boards: readonly string[], score: number, outcome: Outcome, sentAt: number): void;
    /** The nickname the service answered it applied (the last one counts). */
    nickname(p: PlayerKey, name: string): void;
    achievements(p: PlayerKey, ids: readonly string[]): void;
    players(gameId: string): string[];
    /** The players of the game with at least one acknowledged submit. */
    scored(gameId: string): string[];
    boards(p: PlayerKey): string[];
    nicknameOf(p: PlayerKey): string | undefined;
    achievementsOf(p: PlayerKey): string[];
    /**
     * The board's expected best for the player in the period that started at `periodStart` (ms;
     * 0 for all-time): `expected` from acknowledged submits, `possible` the unknown outcomes that
     * could have beaten it; undefined when a submit straddles the period's start (either period).
     */
    expected(
        p: PlayerKey,
        board: string,
        order: Order,
        periodStart: number,
    ): { expected: number | undefined; possible: number[] } | undefined;
}

const keyOf = (p: PlayerKey): string => `${p.gameId}\n${p.player}`;

export function ledger(): Ledger {
    const submits = new Map<string, Map<string, Submit[]>>();
    const names = new Map<string, string>();
    const unlocked = new Map<string, Set<string>>();
    const byGame = new Map<string, Set<string>>();
    const known = (p: PlayerKey): void => {
        let players = byGame.get(p.gameId);
        if (players === undefined) byGame.set(p.gameId, (players = new Set()));
        players.add(p.player);
    };
    return {
        submit(p, boards, score, outcome, sentAt) {
            known(p);
            let perBoard = submits.get(keyOf(p));
            if (perBoard === undefined) submits.set(keyOf(p), (perBoard = new Map()));
            for (const board of boards) {
                const list = perBoard.get(board) ?? [];
                list.push({ score, outcome, sentAt, answeredAt: Date.now() });
                perBoard.set(board, list);
            }
        },
        nickname(p, name) {
            known(p);
            names.set(keyOf(p), name);
        },
        achievements(p, ids) {
            known(p);
            const set = unlocked.get(keyOf(p)) ?? new Set<string>();
            for (const id of ids) set.add(id);
            unlocked.set(keyOf(p), set);
        },
        players: (gameId) => [...(byGame.get(gameId) ?? [])],
        scored: (gameId) =>
            [...(byGame.get(gameId) ?? [])].filter((player) =>
                [...(submits.get(keyOf({ gameId, player }))?.values() ?? [])].some((list) =>
                    list.some((x) => x.outcome === 'acked'),
                ),
            ),
        boards: (p) => [...(submits.get(keyOf(p))?.keys() ?? [])],
        nicknameOf: (p) => names.get(keyOf(p)),
        achievementsOf: (p) => [...(unlocked.get(keyOf(p)) ?? [])],
        expected(p, board, order, periodStart) {
            const list = submits.get(keyOf(p))?.get(board) ?? [];
            // A submit answered within a few seconds of the period's start may be in either period.
            const margin = 5_000;
            if (
                list.some(
                    (s) =>
                        s.outcome !== 'refused' &&
                        s.sentAt < periodStart + margin &&
                        s.answeredAt > periodStart - margin,
                )
            )
                return undefined;
            const inPeriod = list.filter((s) => s.sentAt >= periodStart);
            const better = (a: number, b: number): boolean => (order === 'desc' ? a > b : a < b);
            let expected: number | undefined;
            for (const s of inPeriod)
                if (s.outcome === 'acked' && (expected === undefined || better(s.score, expected))) expected = s.score;
            const possible = inPeriod
                .filter((s) => s.outcome === 'unknown' && (expected === undefined || better(s.score, expected)))
                .map((s) => s.score);
            return { expected, possible };
        },
    };
}
