// The canister's Candid interface as the gateway and tools see it: every method takes one JSON
// text and answers one JSON text (see api.ts for the shapes). `leaderboard.did` is generated
// from the canister by `azle build`; a test checks the two agree.
import type { IDL } from '@dfinity/candid';

import type { ApiError } from './api';

export const UPDATE_METHODS = [
    'submit_scores', 'unlock_achievements', 'set_nickname', 'start_play_session', 'end_play_session',
    'admin_register_game', 'admin_update_game', 'admin_rotate_key', 'admin_set_time_validation', 'admin_set_caps',
    'admin_create_board', 'admin_update_board', 'admin_delete_board', 'admin_set_allowance', 'admin_set_gateways',
] as const;

export const QUERY_METHODS = [
    'resolve_key', 'admin_list_games', 'admin_suspicion_log',
    'leaderboard', 'list_boards', 'read_board', 'board_rank', 'player_rank', 'around', 'list_archives', 'read_archive',
    'profile', 'game_info', 'game_stats', 'platform_stats',
] as const;

export type UpdateMethod = (typeof UPDATE_METHODS)[number];
export type QueryMethod = (typeof QUERY_METHODS)[number];
export type Method = UpdateMethod | QueryMethod;

/** What every method answers, as JSON. */
export type Reply<T = unknown> = { ok: T } | { err: ApiError };

export const idlFactory: IDL.InterfaceFactory = ({ IDL: I }) =>
    I.Service(Object.fromEntries([
        ...UPDATE_METHODS.map((m) => [m, I.Func([I.Text], [I.Text], [])]),
        ...QUERY_METHODS.map((m) => [m, I.Func([I.Text], [I.Text], ['query'])]),
    ]));

/** The actor `idlFactory` gives: each method takes and returns JSON text. */
export type LeaderboardActor = Record<Method, (json: string) => Promise<string>>;

/** The init/upgrade argument: which principals may call the write methods (besides controllers). */
export interface InitConfig {
    gateways?: string[];
}
