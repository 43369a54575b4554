// The use cases of the public reads (anyone may call them; gateways answer the HTTP reads from them),
// and the gateway's own-player rank reads (a player's held score shows in their own reads only;
// JSON, and packed: shell/packed-ranks.ts reads and replies those).
import type { UseCases } from '../shell/handle';
import * as playerSets from '../service/player-sets';
import * as players from '../service/players';
import * as reads from '../service/reads';
import * as leagueReads from '../service/league-reads';

/** The key's Candid bytes a packed request carries (shell/packed-ranks.ts; JSON makes no bytes). */
function keyBytesOf(req: object): Uint8Array | undefined {
    const bytes = (req as { keyBytes?: unknown }).keyBytes;
    return bytes instanceof Uint8Array ? bytes : undefined;
}

export const readMethods = {
    leaderboard: (ctx, req) => reads.leaderboardJson(ctx, req, 'candid'),
    list_boards: reads.listBoards,
    read_board: (ctx, req) => reads.readBoardJson(ctx, req, 'candid'),
    board_rank: reads.boardRankJson,
    player_rank: reads.playerRankJson,
    around: (ctx, req) => reads.aroundJson(ctx, req, false, 'candid'),
    division: leagueReads.division,
    own_board_rank: (ctx, req) => reads.boardRankJson(ctx, req, true),
    own_player_rank: (ctx, req) => reads.playerRankJson(ctx, req, true),
    own_player_rank_packed: (ctx, req) => reads.playerRank(ctx, req, true, keyBytesOf(req)),
    own_board_rank_packed: (ctx, req) => reads.boardRank(ctx, req, true, keyBytesOf(req)),
    own_around: (ctx, req) => reads.aroundJson(ctx, req, true, 'candid'),
    board_players: playerSets.boardPlayers,
    list_archives: reads.listArchives,
    archive_stats: reads.archiveStats,
    read_archive: reads.readArchive,
    profile: players.profile,
    game_info: reads.gameInfo,
    game_stats: reads.gameStats,
    platform_stats: reads.platformStats,
} satisfies Partial<UseCases>;
