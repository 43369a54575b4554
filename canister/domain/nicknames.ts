// Nickname rules beyond validation: the case-insensitive uniqueness key, numeric suffixes for
// taken names (rule N2) and the Player_<number> defaults.

const MAX_NICKNAME = 16;

/** Names are unique across the service regardless of case. */
export function nameKey(nickname: string): string {
    return nickname.toLowerCase();
}

/** `<name>_<n>`, cutting the name so that the result stays within 16 characters. */
export function suffixed(nickname: string, n: number): string {
    const suffix = `_${n}`;
    return nickname.slice(0, MAX_NICKNAME - suffix.length) + suffix;
}

export function defaultNickname(n: number): string {
    return `Player_${n}`;
}

/** The <number> of a name written exactly as a default (`Player_<number>`, any case), else undefined. */
export function defaultNumber(nickname: string): number | undefined {
    const digits = nickname.length > 7 && nameKey(nickname.slice(0, 7)) === 'player_' ? nickname.slice(7) : '';
    const n = Number(digits);
    return digits !== '' && Number.isSafeInteger(n) && n > 0 && String(n) === digits ? n : undefined;
}
