// The notices a dashboard page shows after a form action (`?done=<key>`): only these texts, so a
// link cannot put its own words on the dashboard; an unknown key shows nothing.
const NOTICE_TEXT = {
    saved: 'Saved.',
    'key-rotated': 'A new key is active; the old one no longer works.',
    'caps-saved': 'Caps saved.',
    'server-key-revoked': 'The server key was revoked: it no longer works.',
    'server-settings-saved': 'Server settings saved.',
    'time-validation-saved': 'Time validation saved.',
    'board-created': 'Board created.',
    'entry-removed': 'Entry removed.',
    'player-wiped': 'Player wiped.',
    'player-banned': 'Player banned.',
    'ban-lifted': 'Ban lifted.',
    'report-handled': 'Done: the report is off the queue and in the moderation log.',
    'review-settled': 'Review done.',
    'board-saved': 'Board saved.',
    'standard-boards-saved': 'Standard boards saved.',
    'reward-claims-saved': 'Reward claims saved.',
    'board-reset': 'Board reset: the period was archived.',
    'board-deleted': 'Board deleted.',
    'game-registered': 'Game registered. Here is its API key.',
    'request-sent': 'Request sent to the operators.',
    'game-deleted': 'The game and all of its data were deleted.',
    'webhook-paused': 'Endpoint paused: events wait for it until you resume it.',
    'webhook-resumed': 'Endpoint resumed: it gets the events it missed, in order.',
    'webhook-deleted': 'Endpoint deleted.',
} as const;
export type Notice = keyof typeof NOTICE_TEXT;
const NOTICES: ReadonlyMap<string, string> = new Map(Object.entries(NOTICE_TEXT));

/** The text of a `?done=` key, if it is one. */
export const noticeText = (key: unknown): string | undefined =>
    typeof key === 'string' ? NOTICES.get(key) : undefined;

/** `path?done=<notice>`. */
export const withNotice = (path: string, notice: Notice): string => `${path}?done=${notice}`;
