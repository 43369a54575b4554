// Nickname rules beyond validation: the uniqueness key (case and look-alike characters folded),
// numeric suffixes for taken names (rule N2) and the Player_<number> defaults.

const MAX_NICKNAME = 16;

/**
 * Folded look-alikes (after lower-casing): i (I) and 1 look like l, 0 like o. Nicknames are
 * A-Za-z0-9_ only, so no other character (|, Cyrillic, ...) can appear. Deliberately not
 * folded: 5/s and 2/z (distinct shapes in every common font, and not confusables in Unicode's
 * UTS #39 either) and rn/m (a two-letter look-alike that depends on font and spacing; folding
 * it would merge names players tell apart and make the key longer than the name).
 */
const FOLD: Readonly<Record<string, string>> = { i: 'l', '1': 'l', '0': 'o' };

/** Names are unique within a game regardless of case and of look-alike characters (names.ts keys them per game). */
export function nameKey(nickname: string): string {
    const lower = nickname.toLowerCase();
    let key = '';
    for (const c of lower) key += FOLD[c] ?? c;
    return key;
}

/** The key of older releases (case folded only): names they kept are found under it until moved. */
export function legacyNameKey(nickname: string): string {
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

/**
 * The <number> of a name that is, or looks like, a default (`Player_<number>` in any case and
 * look-alike spelling: `PIayer_1O` is Player_10's), else undefined.
 */
export function defaultNumber(nickname: string): number | undefined {
    const key = nameKey(nickname);
    const digits =
        key.length > 7 && key.startsWith('player_') ? key.slice(7).replace(/l/g, '1').replace(/o/g, '0') : '';
    const n = Number(digits);
    return digits !== '' && Number.isSafeInteger(n) && n > 0 && String(n) === digits ? n : undefined;
}
