// Input rules of the contract: identifiers, nicknames, scores. Each check returns an error
// message (the contract's wording where it has one) or undefined when the value is fine.

export const GAME_ID = /^[a-z0-9-]{3,50}$/;
export const PATH_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const PLAYER_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const ACHIEVEMENT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
export const API_KEY = /^key_([a-z0-9-]{3,50})_([0-9]{16,40})$/;
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Play-session tokens are `ps_` + 32 hex digits; a longer one is unknown without a lookup. */
export const MAX_PLAY_SESSION_TOKEN = 100;

export const FANOUT_BOARDS = ['all-time', 'weekly', 'daily'] as const;

/** A check that a value is a string matching `pattern`, with `message` when it is not. */
function matching(pattern: RegExp, message: string): (value: unknown) => string | undefined {
    return (value) => (typeof value === 'string' && pattern.test(value) ? undefined : message);
}

export const checkGameId = matching(GAME_ID, 'Game ID must be 3-50 characters: lowercase letters, digits and hyphens.');
export const checkBoardId = matching(PATH_ID, 'Scoreboard ID must be 1-64 characters: letters, digits, underscores and hyphens.');
export const checkPlayerId = matching(PLAYER_ID, 'playerId must be 1-100 characters: letters, digits, underscores and hyphens.');
export const checkAchievementId = matching(ACHIEVEMENT_ID, 'achievementId must be 1-64 characters: letters, digits and _ . : -');

/** Rule N3 wording; nicknames are 3-16 of A-Z a-z 0-9 _. */
export function checkNickname(value: unknown): string | undefined {
    if (typeof value !== 'string') return 'Nickname must be a string';
    if (value.length < 3) return 'Nickname must be at least 3 characters';
    if (value.length > 16) return 'Nickname must be 16 characters or less';
    if (!/^[A-Za-z0-9_]+$/.test(value)) return 'Nickname can only contain letters, numbers, and underscores';
    return undefined;
}

/** Scores and streaks: non-negative integers a double holds exactly (Godot and JSON parse numbers as doubles). */
export function checkCount(field: string, value: unknown): string | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SAFE) {
        return `${field} must be a non-negative integer no larger than ${MAX_SAFE}`;
    }
    return undefined;
}

/** The game a key belongs to (the id is embedded in the key), or undefined for a malformed key. */
export function gameOfApiKey(key: string): string | undefined {
    return API_KEY.exec(key)?.[1];
}

export function isFanout(boardId: string): boolean {
    return (FANOUT_BOARDS as readonly string[]).includes(boardId);
}
