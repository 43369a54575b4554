// Every route of the HTTP API, in the order they are matched; the reference lists them too.
import achievements from './achievements';
import authProfile from './auth-profile';
import deleteAccount from './delete-account';
import division from './division';
import deviceCode from './device-code';
import deviceToken from './device-token';
import idTokens from './id-token';
import logout from './logout';
import migrateAccount from './migrate-account';
import profileNickname from './profile-nickname';
import around from './around';
import boardPlayers from './board-players';
import boardRank from './board-rank';
import boardExport from './board-export';
import boardReads from './board-reads';
import dashboardApi from './dashboard-api';
import dashboardWebhooks from './dashboard-webhooks';
import events from './events';
import gameBackup from './game-backup';
import game from './game';
import gameStats from './game-stats';
import health from './health';
import leaderboard from './leaderboard';
import playSessionEnd from './play-session-end';
import playSessionStart from './play-session-start';
import playerNickname from './player-nickname';
import playerProfile from './player-profile';
import playerRank from './player-rank';
import report from './report';
import rewards from './rewards';
import scores from './scores';
import stats from './stats';
import webhookTest from './webhook-test';
import type { Route } from './route';

export const ROUTES: readonly Route[] = [
    scores,
    leaderboard,
    ...boardReads,
    boardRank,
    around,
    division,
    boardPlayers,
    report,
    playerProfile,
    playerRank,
    playerNickname,
    ...rewards,
    playSessionStart,
    playSessionEnd,
    achievements,
    game,
    gameStats,
    stats,
    events,
    health,
    deviceCode,
    deviceToken,
    ...idTokens,
    authProfile,
    profileNickname,
    logout,
    deleteAccount,
    migrateAccount,
    ...dashboardApi,
    ...dashboardWebhooks,
    webhookTest,
    ...boardExport,
    ...gameBackup,
];
