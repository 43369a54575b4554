// Error texts the contract fixes (the API reference's errors and rules) or that both
// hosts send: clients match on substrings of these, so each is written once.

export const MESSAGES = {
    missingApiKey: 'Missing API key',
    invalidApiKey: 'Invalid API key',
    gameDeactivated: 'This game is deactivated',
    invalidServerKey: 'Invalid server key',
    /** A player credential on a write of a game that takes scores and unlocks from its server only. */
    serverOnly: 'This game accepts scores and achievement unlocks from its server only',
    deadSession: 'Invalid or expired session',
    rateLimited: 'Please wait 2 seconds between submissions.',
    scoreRules: 'Score rejected by game validation rules',
    streakRules: 'Streak rejected by game validation rules',
    sessionRequired:
        'This game requires starting a session before submitting scores: time validation is on, so call /play-sessions/start and send its token as playSessionToken.',
    tooManyPlaySessions: 'Too many active play sessions. End or wait for current play sessions to expire.',
    tooManyPendingCodes: 'Too many pending device authorizations. Try again shortly.',
    authorizationPending: 'authorization_pending',
    expiredToken: 'expired_token',
    /** A banned player's write (403 with the API key, 400 with a session). */
    banned: 'This player is banned from this game.',
    playerNotFound: 'Player not found',
    grantNotFound: 'Reward not found: no grant of this id for this player (it may have expired)',
    archiveNotFound: 'Archive not found',
    nicknameNotText: 'Nickname must be a string',
    nicknameTooShort: 'Nickname must be at least 3 characters',
    nicknameTooLong: 'Nickname must be 16 characters or less',
    nicknameCharacters: 'Nickname can only contain letters, numbers, and underscores',
    /** N2 past its bounded search: the name and every suffix tried for it are held in the game. */
    nicknameSuffixesTaken:
        'That nickname and the suffixes tried for it are taken in this game. Choose another nickname.',
    notJsonObject: 'The request body must be a JSON object',
    unavailable: 'The leaderboard service is temporarily unavailable. Try again shortly.',
    /** 503 + Retry-After: the canister that holds the game is frozen (out of cycles) until its operator adds some. */
    outOfCycles:
        "This game's canister has run out of cycles and is paused until the service's operator tops it up. Nothing is lost. Try again later.",
    /** The gateway's queue of submits is full (the canister is falling behind). */
    busy: 'The leaderboard service is busy. Try again in a few seconds.',
    noReply: 'No reply for this submit',
    /** 503 + Retry-After while a game's state moves to another canister. */
    gameMoving: 'This game is moving to another canister. Try again in a few seconds.',
    /** 503 + moved: the game is not on the canister that was asked (the gateway asks again). */
    gameMoved: 'This game is not on this canister',
    /** A new player of a game whose canister is past its heap line (existing players play on). */
    shardFull:
        'This game cannot take new players right now: its canister is full. Players who already played can go on.',
} as const;

/** What is wrong with a field's value, after `Invalid <field>: `. */
export const FIELD = {
    gameId: 'must be 3-50 characters: lowercase letters, digits and hyphens',
    scoreboardId: 'must be 1-64 characters: letters, digits, underscores and hyphens',
    playerId: 'must be 1-100 characters: letters, digits, underscores and hyphens',
    achievementId: 'must be 1-64 characters: letters, digits and _ . : -',
    count: `must be a non-negative integer no larger than ${Number.MAX_SAFE_INTEGER}`,
} as const;

export const boardNotFound = (boardId: string): string => `Scoreboard '${boardId}' not found for this game.`;
export const unknownEndpoint = (method: string, path: string): string => `Unknown endpoint: ${method} ${path}`;
/** The body of a direct read's 302 to the canister that holds the game (one text: hashed once). */
export const gameReadsElsewhere = "This game is read at its own canister: its URL is in this answer's Location header";
