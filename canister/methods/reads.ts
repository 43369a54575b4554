// The use cases of the public reads (anyone may call them; gateways answer the HTTP reads from them),
// and the gateway's own-player rank reads (a player's held score shows in their own reads only).
import type { UseCases } from '../shell/handle';
import * as playerSets from '../service/player-sets';
import * as players from '../service/players';
import * as reads from '../service/reads';
import * as leagueReads from '../service/league-reads';

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
