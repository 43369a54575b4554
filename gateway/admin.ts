// `npm run admin -- <command>`: operator commands against the canister, as an operator
// identity: the local stack running on DATA_DIR (npm start, its operator-identity.pem) or a
// production canister (IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM, OPERATOR_IDENTITY_PEM).
// Each command prints one JSON line (status: one per canister).
import { parseArgs } from 'node:util';

import { Principal } from '@dfinity/principal';

import type { Method, Relayed, ReplyOf } from '../contract/canister';
import type { CanisterClient } from './ic/canister';
import { readConfig, resolveCanister } from './ops/config';
import { readService } from './ops/cycles-watch';
import { ApiFailure, canisterFailure } from './http/errors';
import { shardRouter } from './ic/shards';
import type { PrizeRow } from '../contract/rewards';
import { importGame } from './backups/import-game';
import { moveGame, moveGames } from './ops/move-game';
import { restoreService } from './backups/restore';
import { backupService } from './backups/take';
import { runSnapshots, SNAPSHOTS_HELP } from './backups/snapshots';

/** A prize table given as JSON text (the canister checks its rows). */
function prizeRows(text: string | undefined): PrizeRow[] | undefined {
    if (text === undefined) return undefined;
    try {
        return JSON.parse(text) as PrizeRow[];
    } catch {
        throw new Error(`--prizes must be a JSON list of rows, e.g. '[{"from":1,"to":3,"reward":"gold","amount":10}]'`);
    }
}

export const HELP = `Usage: npm run admin -- <command> [options]

  create-game <gameId> [--name <name>] [--description <text>] [--developer <id>]
  list-games [--developer <id>]
  create-board <gameId> <boardId> --type targeted|monthly|custom [--days N] [--sort score|streak] [--name <name>]
               [--order desc|asc] [--operator best|latest|sum] [--ties distinct|shared]
               [--format number|milliseconds|decimal:N] [--event-top N]   (N: 0-25 top entries its events name)
               [--filters key,key]   (metadata keys its reads can filter by: ?filter=key:value)
               [--tiebreak asc|desc]   (equal scores rank by the submits' tiebreak: asc lower first)
               [--league '{"divisionSize":30,"tiers":["Bronze","Silver"],"promote":3,"demote":3}']
                 (timed boards: divisions in tiers, promotion and demotion at each close; docs/leagues.md)
               [--prizes '<json rows>']   (timed boards: the prize table paid at each close, docs/rewards.md)
  set-prizes <gameId> <boardId> '<json rows>'|none   (a timed board's prize table; none removes it)
  set-standard-boards <gameId> [--order desc|asc] [--operator best|latest|sum]   (all-time, weekly, daily)
  set-time-validation <gameId> on|off [--min-seconds N] [--max-score-per-second N] [--session-lifetime N]
  set-caps <gameId> [--max-score N|none] [--max-streak N|none] [--min-score N|none]
  rotate-key <gameId>
  rotate-server-key <gameId>   (the game's secret server key, shown once; the old one stops working)
  set-server-only <gameId> on|off [--skip-checks on|off]   (scores and unlocks from the server key only)
  set-allowance <developerId> <games>
  deactivate-game <gameId> | activate-game <gameId>
  suspicion-log <gameId> [--limit N]

  list-requests | approve-request <developerId>   (developers asking for more game slots)

  move-game <gameId> <canisterId> [--from <canisterId>]   (the game's whole state to another canister:
               its writes answer 503 + Retry-After meanwhile; run again to resume after a failure)
  move-games [canisterId] [--abort]   (every game the directory still holds, one at a time, to the
               shard named or, for each, the shard taking new games that holds the fewest; each game
               paused during its own move only; run again to finish an interrupted run, --abort to
               abort the interrupted moves instead: docs/deploy.md)
  import-game <file> [--developer <id>]   (a game's backup file from the dashboard, under a new API key, for
               the developer named or the operator's: docs/backups.md)
  backup <dir> [--game <gameId>]   (every canister's state, or one game's, into files in the new folder
               <dir>: secrets and emails, 0600; each game's writes pause while it is staged:
               docs/operations.md)
  restore <dir> [--game <gameId>] [--replace] [--abort] [--check]   (a backup into this service; refuses a
               damaged, partial or newer backup and games it holds already (--replace deletes them
               first) before changing anything; run again to resume, --abort to drop a half import,
               --check to check the backup and list what it would do, changing nothing)
  set-heap-limit <bytes> [canisterId]   (every canister, or the one named: past it, no new players
               or games: docs/limits.md)
${SNAPSHOTS_HELP}

  status   (one JSON line per canister: cycles, burn per day, runway, frozen, heap and stable bytes,
           games, players, instructions per minute, last top-up; the cycles alarm on stderr:
           docs/operations.md)

Targets the service started by npm start (DATA_DIR, default ./data), or a production
canister when IC_HOST, CANISTER_ID, GATEWAY_IDENTITY_PEM and OPERATOR_IDENTITY_PEM are set.
`;

const OPERATOR = 'operator';

function number(name: string, value: string | undefined): number | undefined {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
    return n;
}

/** `--format`: number, milliseconds or decimal:N (N decimal places); the canister checks the rest. */
function format(value: string | undefined): object | undefined {
    if (value === undefined) return undefined;
    const decimal = /^decimal:(\d+)$/.exec(value);
    return decimal ? { kind: 'decimal', places: Number(decimal[1]) } : { kind: value };
}

function cap(name: string, value: string | undefined): number | null | undefined {
    return value === 'none' ? null : number(name, value);
}

export async function runAdmin(argv: string[], print: (line: string) => void = console.log): Promise<void> {
    const { values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
            name: { type: 'string' },
            description: { type: 'string' },
            developer: { type: 'string' },
            type: { type: 'string' },
            days: { type: 'string' },
            sort: { type: 'string' },
            'min-seconds': { type: 'string' },
            'max-score-per-second': { type: 'string' },
            'session-lifetime': { type: 'string' },
            'max-score': { type: 'string' },
            'max-streak': { type: 'string' },
            'min-score': { type: 'string' },
            limit: { type: 'string' },
            'skip-checks': { type: 'string' },
            order: { type: 'string' },
            operator: { type: 'string' },
            ties: { type: 'string' },
            tiebreak: { type: 'string' },
            league: { type: 'string' },
            format: { type: 'string' },
            'event-top': { type: 'string' },
            filters: { type: 'string' },
            prizes: { type: 'string' },
            from: { type: 'string' },
            abort: { type: 'boolean' },
            game: { type: 'string' },
            replace: { type: 'boolean' },
            check: { type: 'boolean' },
            identity: { type: 'string' },
        },
    });
    const [command, ...args] = positionals;
    const need = (n: number, usage: string): void => {
        if (args.length < n) throw new Error(`Usage: npm run admin -- ${usage}`);
    };
    if (command === undefined || command === 'help') {
        print(HELP);
        return;
    }
    // Game-level commands go to the game's canister (operators are registered on every shard), the rest to the directory.
    const router = shardRouter(await resolveCanister(readConfig(), 'operator'));
    const canister: CanisterClient = router.routed;
    // Arguments come from the command line as they are; the canister checks every field.
    const ok = async <M extends Method>(method: M, request: Relayed<M>): Promise<ReplyOf<M>> => {
        const reply = await canister.relay(method, request);
        if ('err' in reply) throw canisterFailure(reply.err);
        return reply.ok;
    };
    let result: unknown;
    switch (command) {
        case 'create-game': {
            need(1, 'create-game <gameId> [--name <name>]');
            const developerId = values.developer ?? OPERATOR;
            const request = {
                developerId,
                gameId: args[0],
                name: values.name ?? args[0],
                description: values.description ?? '',
            };
            let created: ReplyOf<'admin_register_game'>;
            try {
                created = await ok('admin_register_game', request);
            } catch (e) {
                // The 3-games default is for dashboard accounts, not for the operator's scripts.
                if (!(e instanceof ApiFailure && e.status === 403 && developerId === OPERATOR)) throw e;
                const games = await ok('admin_list_games', { developerId });
                await ok('admin_set_allowance', { developerId, allowance: games.length + 100 });
                created = await ok('admin_register_game', request);
            }
            result = { gameId: args[0], apiKey: created.apiKey };
            break;
        }
        case 'list-games': {
            const games = await ok(
                'admin_list_games',
                values.developer === undefined ? {} : { developerId: values.developer },
            );
            result = games.map(({ gameId, name, developerId, apiKey, isActive, timeValidation, caps }) => ({
                gameId,
                name,
                developerId,
                apiKey,
                isActive,
                timeValidation,
                caps,
            }));
            break;
        }
        case 'create-board':
            need(2, 'create-board <gameId> <boardId> --type targeted|monthly|custom');
            result = await ok('admin_create_board', {
                gameId: args[0],
                scoreboardId: args[1],
                type: values.type,
                days: number('days', values.days),
                sortBy: values.sort,
                name: values.name,
                sortOrder: values.order,
                operator: values.operator,
                ties: values.ties,
                tiebreak: values.tiebreak,
                format: format(values.format),
                eventTop: number('event-top', values['event-top']),
                filters: values.filters?.split(',').map((k) => k.trim()),
                league: values.league === undefined ? undefined : leagueOption(values.league),
                prizes: prizeRows(values.prizes),
            });
            break;
        case 'set-prizes':
            need(3, "set-prizes <gameId> <boardId> '<json rows>'|none");
            result = await ok('admin_update_board', {
                gameId: args[0],
                scoreboardId: args[1],
                prizes: args[2] === 'none' ? null : prizeRows(args[2]),
            });
            break;
        case 'set-standard-boards':
            need(1, 'set-standard-boards <gameId> [--order desc|asc] [--operator best|latest|sum]');
            result = (
                await ok('admin_update_game', {
                    gameId: args[0],
                    standardBoards: { sortOrder: values.order, operator: values.operator },
                })
            ).standardBoards;
            break;
        case 'set-time-validation':
            need(2, 'set-time-validation <gameId> on|off');
            if (args[1] !== 'on' && args[1] !== 'off') throw new Error('set-time-validation expects on or off');
            result = await ok('admin_set_time_validation', {
                gameId: args[0],
                enabled: args[1] === 'on',
                minPlaySeconds: number('min-seconds', values['min-seconds']),
                maxScorePerSecond: number('max-score-per-second', values['max-score-per-second']),
                sessionLifetimeSeconds: number('session-lifetime', values['session-lifetime']),
            });
            break;
        case 'set-caps':
            need(1, 'set-caps <gameId> [--max-score N|none] [--max-streak N|none] [--min-score N|none]');
            result = await ok('admin_set_caps', {
                gameId: args[0],
                maxScore: cap('max-score', values['max-score']),
                maxStreak: cap('max-streak', values['max-streak']),
                minScore: cap('min-score', values['min-score']),
            });
            break;
        case 'rotate-key':
            need(1, 'rotate-key <gameId>');
            result = await ok('admin_rotate_key', { gameId: args[0] });
            break;
        case 'rotate-server-key':
            need(1, 'rotate-server-key <gameId>');
            result = await ok('admin_rotate_server_key', { gameId: args[0] });
            break;
        case 'set-server-only': {
            const usage = 'set-server-only <gameId> on|off [--skip-checks on|off]';
            need(2, usage);
            const onOff = (value: string | undefined): boolean | undefined => {
                if (value === undefined) return undefined;
                if (value !== 'on' && value !== 'off') throw new Error(`Usage: npm run admin -- ${usage}`);
                return value === 'on';
            };
            const game = await ok('admin_update_game', {
                gameId: args[0],
                serverOnly: onOff(args[1]),
                serverSkipsChecks: onOff(values['skip-checks']),
            });
            result = {
                gameId: game.gameId,
                serverOnly: game.serverOnly ?? false,
                serverSkipsChecks: game.serverSkipsChecks ?? false,
            };
            break;
        }
        case 'set-allowance':
            need(2, 'set-allowance <developerId> <games>');
            result = await ok('admin_set_allowance', { developerId: args[0], allowance: Number(args[1]) });
            break;
        case 'deactivate-game':
        case 'activate-game':
            need(1, `${command} <gameId>`);
            result = await ok('admin_update_game', { gameId: args[0], isActive: command === 'activate-game' });
            break;
        case 'suspicion-log':
            need(1, 'suspicion-log <gameId> [--limit N]');
            result = await ok('admin_suspicion_log', { gameId: args[0], limit: number('limit', values.limit) });
            break;
        case 'list-requests':
            result = await ok('admin_list_requests', {});
            break;
        case 'approve-request':
            need(1, 'approve-request <developerId>');
            result = await ok('admin_approve_request', { developerId: args[0] });
            break;
        case 'move-game': {
            need(2, 'move-game <gameId> <canisterId> [--from <canisterId>]');
            const config = readConfig();
            const target = await resolveCanister(config, 'operator', args[1]);
            // By default from where the directory says the game is.
            const source =
                values.from === undefined
                    ? await router.locate(args[0])
                    : await resolveCanister(config, 'operator', values.from);
            // Progress on stderr; the one JSON line of the result on stdout.
            result = await moveGame(args[0], source, target, (line) => console.error(`move-game: ${line}`), canister);
            break;
        }
        case 'move-games': {
            // Progress on stderr; the one JSON line of the result on stdout.
            result = await moveGames(router.directory, {
                to: args[0],
                abort: values.abort,
                log: (line) => console.error(`move-games: ${line}`),
            });
            break;
        }
        case 'import-game':
            need(1, 'import-game <file> [--developer <id>]');
            result = await importGame(args[0], router.directory, values.developer ?? OPERATOR, (line) =>
                console.error(`import-game: ${line}`),
            );
            break;
        case 'backup':
            need(1, 'backup <dir> [--game <gameId>]');
            result = await backupService(args[0], router.directory, {
                game: values.game,
                log: (line) => console.error(`backup: ${line}`),
            });
            break;
        case 'restore':
            need(1, 'restore <dir> [--game <gameId>] [--replace] [--abort] [--check]');
            result = await restoreService(args[0], router.directory, {
                game: values.game,
                replace: values.replace,
                abort: values.abort,
                check: values.check,
                log: (line) => console.error(`restore: ${line}`),
            });
            break;
        case 'set-heap-limit': {
            need(1, 'set-heap-limit <bytes> [canisterId]');
            // One canister when named, else every one: the directory and each shard.
            const targets = (await router.all(true)).filter(
                (c) => args[1] === undefined || c.canisterId.toText() === args[1],
            );
            if (targets.length === 0) throw new Error(`No canister ${args[1]} among the directory's shards`);
            for (const target of targets) {
                const reply = await target.relay('admin_set_heap_limit', { heapLimitBytes: Number(args[0]) });
                if ('err' in reply) throw canisterFailure(reply.err);
                result = reply.ok;
            }
            break;
        }
        case 'status': {
            // cycles_status and shard_status are the gateways' reads: asked as this service's gateway.
            const reader = await resolveCanister(readConfig(), 'gateway');
            const reading = await readService(reader, (id) => reader.forCanister?.(Principal.fromText(id)) ?? reader);
            for (const line of reading.lines) print(JSON.stringify(line));
            if (reading.status === undefined)
                console.error(`status: the directory did not answer cycles_status: ${reading.failure ?? ''}`);
            else if (reading.status.alarm !== 'ok')
                console.error(`status: cycles alarm ${reading.status.alarm}: ${reading.status.message}`);
            return;
        }
        case 'snapshots':
            result = await runSnapshots(router.directory, args, values.identity);
            break;
        default:
            throw new Error(`Unknown command '${command}'. Run npm run admin -- help`);
    }
    print(JSON.stringify(result));
}

if (require.main === module) {
    runAdmin(process.argv.slice(2)).then(
        () => process.exit(0),
        (e: unknown) => {
            console.error(`admin: ${e instanceof Error ? e.message : String(e)}`);
            process.exit(1);
        },
    );
}

/** `--league` of create-board: the option as JSON (the canister checks its fields). */
function leagueOption(text: string): unknown {
    try {
        return JSON.parse(text) as unknown;
    } catch {
        throw new Error(
            '--league expects JSON: {"divisionSize":30,"tiers":["Bronze","Silver"],"promote":3,"demote":3}',
        );
    }
}
