// The use cases of the public reads (anyone may call them; gateways answer the HTTP reads from them).
import type { UseCases } from '../shell/handle';
import * as playerSets from '../service/player-sets';
import * as players from '../service/players';
import * as reads from '../service/reads';

export const readMethods = {
    leaderboard: reads.leaderboardJson,
    list_boards: reads.listBoards,
    read_board: reads.readBoardJson,
    board_rank: reads.boardRank,
    player_rank: reads.playerRank,
    around: reads.aroundJson,
    board_players: playerSets.boardPlayers,
    list_archives: reads.listArchives,
    archive_stats: reads.archiveStats,
    read_archive: reads.readArchive,
    profile: players.profile,
    game_info: reads.gameInfo,
    game_stats: reads.gameStats,
    platform_stats: reads.platformStats,
} satisfies Partial<UseCases>;
