// What the soak's clients share: the stack's addresses, the games and their boards, the
// recorder and the ledger, the traffic phase's end, and the pacing every client keeps.
import { randomBytes, randomInt } from 'node:crypto';

import type { Ledger, Order } from './ledger';
import type { Recorder } from './record';

export interface Board {
    id: string;
    order: Order;
    /** Standard boards reset daily or weekly; the others never (the soak makes only all-time ones). */
    period: 'allTime' | 'daily' | 'weekly';
    /** A fan-out board (every submit without scoreboardId lands on it). */
    fanOut: boolean;
}

export interface Game {
    id: string;
    key: string;
    /** Time validation on: every submit carries a play session token of at least MIN_PLAY_SECONDS. */
    timeValidation: boolean;
    /** Boards (an operator's or the developer's may be added while the soak runs). */
    boards: Board[];
    /** Anonymous player ids that submitted (readers ask around them). */
    players: string[];
}

export interface Soak {
    rec: Recorder;
    ledger: Ledger;
    /** The gateway (API base URL). */
    base: string;
    /** The local replica: the certifying domain of direct reads. */
    replicaUrl: string;
    /** The directory: the {canister_url} npm start prints. */
    directory: string;
    games: { demo: Game; dev: Game };
    /** A tag of this run in names (nicknames are unique within a game). */
    tag: string;
    /** Whether the traffic phase goes on. */
    running(): boolean;
    /** The share of the traffic phase gone by (0..1). */
    progress(): number;
    /** The banned player and when the developer's ban was acknowledged (wall-clock ms). */
    ban: { playerId?: string; at?: number };
    /** Signed-in players' headers by `<gameId>\n<ledger player>` (the end's reads are theirs). */
    sessions: Map<string, Record<string, string>>;
}

export const STANDARD_BOARDS: Board[] = [
    { id: 'all-time', order: 'desc', period: 'allTime', fanOut: true },
    { id: 'weekly', order: 'desc', period: 'weekly', fanOut: true },
    { id: 'daily', order: 'desc', period: 'daily', fanOut: true },
];

/** What the time-validation game asks of a play (the operator sets it with npm run admin). */
export const TIME_RULES = { minSeconds: 2, maxScorePerSecond: 1000 } as const;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A player's pause of `min`-`max` ms (rule L1 wants 2 s between a player's submits to a board). */
export const think = (min: number, max: number): Promise<void> => sleep(randomInt(min, max + 1));

export const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)];

/** An anonymous player id as the official SDKs make it: `dev_<unix seconds>_<8 hex>`. */
export const anonymousId = (): string => `dev_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
