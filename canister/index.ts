// The leaderboard canister: Candid methods that take and return one JSON `text`, the
// authorization of write methods (registered gateways and controllers), upgrade hooks that
// keep the heap tables, the period/session timer, and direct board reads over http_request.
import {
    IDL,
    init,
    isController,
    msgArgData,
    msgCaller,
    msgReply,
    postUpgrade,
    preUpgrade,
    query,
    setTimer,
    setTimerInterval,
    time,
    trap,
    update,
} from 'azle';

import { METHODS, type Access, type Method, type ReplyOf, type RequestOf, type Result } from '../contract/canister';
import { bytesToText, textToBytes } from './codecs';
import { stringify } from './domain/json';
import { HttpRequest, HttpResponse, serveHttp } from './http';
import * as games from './service/games';
import * as players from './service/players';
import * as reads from './service/reads';
import { rolloverAll } from './service/rollover';
import * as scores from './service/scores';
import * as sessions from './service/sessions';
import type { Ctx, Untrusted } from './service/context';
import { Fail } from './service/fail';
import { writeSnapshot } from './service/snapshot';
import { loadGames, rebuildSome } from './service/startup';
import { stableStore } from './stable-store';

const ctx: Ctx = {
    store: stableStore(),
    env: {
        // µs: exact in a double (ns is not), and cheap to print; replies convert to ns.
        now: () => Number(time() / 1000n),
        // Azle seeds this CSPRNG from the management canister's raw_rand after init/upgrade.
        random: (n) => crypto.getRandomValues(new Uint8Array(n)),
    },
    games: new Map(),
    stats: new Map(),
    dirtyStats: new Set(),
    rebuilding: new Map(),
};

const InitArg = IDL.Opt(IDL.Text);
const TICK_SECONDS = 30;
// Without a snapshot, post_upgrade reads this many players (~1 M instructions each, well
// inside the 300 B install limit); timers read the rest, this many per message.
const REBUILD_IN_UPGRADE = 150_000;
const REBUILD_PER_TIMER = 25_000;

function continueRebuild(): void {
    if (ctx.rebuilding.size === 0) return;
    setTimer(0, () => {
        rebuildSome(ctx, REBUILD_PER_TIMER);
        continueRebuild();
    });
}

/** Principals (text) allowed to call write methods, besides controllers. */
let gateways = new Set<string>();

function configure(arg: [] | [string]): void {
    const [json] = arg;
    if (json !== undefined) {
        const config = JSON.parse(json) as { gateways?: unknown };
        if (config.gateways !== undefined) {
            if (!Array.isArray(config.gateways) || !config.gateways.every((g) => typeof g === 'string')) {
                trap('init argument: gateways must be a list of principal texts');
            }
            ctx.store.meta.set('gateways', config.gateways);
        }
    }
    gateways = new Set((ctx.store.meta.get('gateways') as string[] | undefined) ?? []);
    setTimerInterval(TICK_SECONDS, () => {
        rolloverAll(ctx);
        sessions.sweepSessions(ctx);
    });
}

let lastCaller: Uint8Array | undefined;
let lastAllowed = false;

function authorized(access: Access): boolean {
    if (access === 'public') return true;
    const caller = msgCaller();
    const bytes = caller.toUint8Array();
    if (access === 'gateway' && lastCaller !== undefined && sameBytes(bytes, lastCaller)) return lastAllowed;
    const allowed = isController(caller) || (access === 'gateway' && gateways.has(caller.toText()));
    if (access === 'gateway') {
        lastCaller = bytes;
        lastAllowed = allowed;
    }
    return allowed;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
}

/**
 * Runs one method of the contract's table: checks the caller against the method's declared
 * access, reads the JSON request, replies `{"ok": ...}` or `{"err": {status, message}}`.
 * Anything thrown but a Fail is a bug: it traps, and the IC rolls the whole message back.
 */
function handle<M extends Method>(method: M, fn: (req: Untrusted<RequestOf<M>>) => ReplyOf<M>): void {
    let reply: Result<ReplyOf<M>>;
    try {
        if (!authorized(METHODS[method].access))
            throw new Fail(403, 'This method is only for registered gateways and controllers');
        let req: unknown;
        try {
            req = JSON.parse(bytesToText(msgArgData()));
        } catch {
            throw new Fail(400, 'The argument must be one Candid text holding JSON');
        }
        if (req === null || typeof req !== 'object' || Array.isArray(req))
            throw new Fail(400, 'The request must be a JSON object');
        reply = { ok: fn(req as Untrusted<RequestOf<M>>) };
    } catch (e) {
        if (!(e instanceof Fail)) throw e;
        reply = { err: { status: e.status, message: e.message } };
    }
    msgReply(textToBytes(stringify(reply)));
}

const JSON_METHOD: [IDL.Type[], IDL.Type, { manual: true }] = [[IDL.Text], IDL.Text, { manual: true }];

export default class {
    @init([InitArg])
    init(arg: [] | [string]): void {
        configure(arg);
        loadGames(ctx);
    }

    @preUpgrade
    preUpgrade(): void {
        writeSnapshot(ctx);
    }

    @postUpgrade([InitArg])
    postUpgrade(arg: [] | [string]): void {
        configure(arg);
        loadGames(ctx, REBUILD_IN_UPGRADE);
        continueRebuild();
    }

    // ---- game API (gateways) ---------------------------------------------------------------

    @update(...JSON_METHOD)
    submit_scores(): void {
        handle('submit_scores', (req) => scores.submitBatch(ctx, req));
    }

    @update(...JSON_METHOD)
    unlock_achievements(): void {
        handle('unlock_achievements', (req) => players.unlockAchievements(ctx, req));
    }

    @update(...JSON_METHOD)
    set_nickname(): void {
        handle('set_nickname', (req) => players.setNickname(ctx, req));
    }

    @update(...JSON_METHOD)
    start_play_session(): void {
        handle('start_play_session', (req) => sessions.startSession(ctx, req));
    }

    @update(...JSON_METHOD)
    end_play_session(): void {
        handle('end_play_session', (req) => sessions.endSession(ctx, req));
    }

    @query(...JSON_METHOD)
    resolve_key(): void {
        handle('resolve_key', (req) => games.resolveKey(ctx, req.apiKey));
    }

    // ---- developers (dashboard, admin CLI) -------------------------------------------------------

    @update(...JSON_METHOD)
    admin_register_game(): void {
        handle('admin_register_game', (req) => {
            const { game, apiKey } = games.registerGame(ctx, req);
            return { game: games.gameView(game), apiKey };
        });
    }

    @update(...JSON_METHOD)
    admin_update_game(): void {
        handle('admin_update_game', (req) => games.gameView(games.updateGame(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_rotate_key(): void {
        handle('admin_rotate_key', (req) => ({ apiKey: games.rotateKey(ctx, req) }));
    }

    @update(...JSON_METHOD)
    admin_set_time_validation(): void {
        handle('admin_set_time_validation', (req) => games.setTimeValidation(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_caps(): void {
        handle('admin_set_caps', (req) => games.setCaps(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_create_board(): void {
        handle('admin_create_board', (req) => games.boardView(games.createBoard(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_update_board(): void {
        handle('admin_update_board', (req) => games.boardView(games.updateBoard(ctx, req)));
    }

    @update(...JSON_METHOD)
    admin_delete_board(): void {
        handle('admin_delete_board', (req) => games.deleteBoard(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_allowance(): void {
        handle('admin_set_allowance', (req) => games.setAllowance(ctx, req));
    }

    @query(...JSON_METHOD)
    admin_list_games(): void {
        handle('admin_list_games', (req) => games.listGames(ctx, req).map(games.gameView));
    }

    @query(...JSON_METHOD)
    admin_suspicion_log(): void {
        handle('admin_suspicion_log', (req) => scores.suspicionLog(ctx, req));
    }

    @update(...JSON_METHOD)
    admin_set_gateways(): void {
        handle('admin_set_gateways', (req) => {
            if (!Array.isArray(req.gateways) || !req.gateways.every((g) => typeof g === 'string')) {
                throw new Fail(400, 'Invalid gateways: must be a list of principal texts');
            }
            ctx.store.meta.set('gateways', req.gateways);
            gateways = new Set(req.gateways as string[]);
            lastCaller = undefined;
            return { gateways: req.gateways as string[] };
        });
    }

    // ---- public reads --------------------------------------------------------------------------

    @query(...JSON_METHOD)
    leaderboard(): void {
        handle('leaderboard', (req) => reads.leaderboard(ctx, req));
    }

    @query(...JSON_METHOD)
    list_boards(): void {
        handle('list_boards', (req) => reads.listBoards(ctx, req));
    }

    @query(...JSON_METHOD)
    read_board(): void {
        handle('read_board', (req) => reads.readBoard(ctx, req));
    }

    @query(...JSON_METHOD)
    board_rank(): void {
        handle('board_rank', (req) => reads.boardRank(ctx, req));
    }

    @query(...JSON_METHOD)
    player_rank(): void {
        handle('player_rank', (req) => reads.playerRank(ctx, req));
    }

    @query(...JSON_METHOD)
    around(): void {
        handle('around', (req) => reads.around(ctx, req));
    }

    @query(...JSON_METHOD)
    list_archives(): void {
        handle('list_archives', (req) => reads.listArchives(ctx, req));
    }

    @query(...JSON_METHOD)
    read_archive(): void {
        handle('read_archive', (req) => reads.readArchive(ctx, req));
    }

    @query(...JSON_METHOD)
    profile(): void {
        handle('profile', (req) => players.profile(ctx, req));
    }

    @query(...JSON_METHOD)
    game_info(): void {
        handle('game_info', (req) => reads.gameInfo(ctx, req));
    }

    @query(...JSON_METHOD)
    game_stats(): void {
        handle('game_stats', (req) => reads.gameStats(ctx, req));
    }

    @query(...JSON_METHOD)
    platform_stats(): void {
        handle('platform_stats', () => reads.platformStats(ctx));
    }

    @query([HttpRequest], HttpResponse, { manual: true })
    http_request(): void {
        serveHttp(ctx);
    }
}
