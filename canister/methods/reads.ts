// The use cases of the public reads (anyone may call them; gateways answer the HTTP reads from them).
import type { UseCases } from '../shell/handle';
import { ctx } from '../shell/state';
import * as playerSets from '../service/player-sets';
import * as players from '../service/players';
import * as reads from '../service/reads';

export const readMethods = {
    leaderboard: (req) => reads.leaderboard(ctx, req),
    list_boards: (req) => reads.listBoards(ctx, req),
    read_board: (req) => reads.readBoard(ctx, req),
    board_rank: (req) => reads.boardRank(ctx, req),
    player_rank: (req) => reads.playerRank(ctx, req),
    around: (req) => reads.around(ctx, req),
    board_players: (req) => playerSets.boardPlayers(ctx, req),
    list_archives: (req) => reads.listArchives(ctx, req),
    archive_stats: (req) => reads.archiveStats(ctx, req),
    read_archive: (req) => reads.readArchive(ctx, req),
    profile: (req) => players.profile(ctx, req),
    game_info: (req) => reads.gameInfo(ctx, req),
    game_stats: (req) => reads.gameStats(ctx, req),
    platform_stats: () => reads.platformStats(ctx),
} satisfies Partial<UseCases>;
