// The client's types, all taken from the contract (the zod schemas the gateway validates with,
// the board options, the messages): a change of a route's shape breaks this package's build.
// `Plain` drops zod's brands, so the published declarations are plain JSON shapes (the build
// expands every alias here into dist/types.d.ts: nothing in it refers outside the package).
import type { z } from 'zod';

import type { BoardOptions, Metadata, Review, ScoreFormat, SortOrder } from '../../contract/board-options';
import type * as S from '../../contract/schemas';

/** A JSON shape without zod's brands (Nanoseconds is a plain number in JSON). */
export type Plain<T> = T extends number
    ? number
    : T extends string | boolean | null | undefined
      ? T
      : T extends readonly (infer U)[]
        ? Plain<U>[]
        : T extends object
          ? { [K in keyof T]: Plain<T[K]> }
          : T;

/** `POST /scores`: what a submit sends (playerId and gameId are filled in by the client). */
export type SubmitInput = Plain<Omit<z.input<typeof S.SubmitBody>, 'playerId' | 'gameId'>>;
export type SubmitReply = Plain<S.SubmitReply>;
/** `POST .../reports`: an entry as the board shows it (`rank` finds default names) and why. */
export type ReportInput = Plain<Omit<z.input<typeof S.ReportBody>, 'playerId' | 'gameId'>>;
export type Leaderboard = Plain<S.Leaderboard>;
export type BoardEntry = Plain<S.BoardEntry>;
export type Board = Plain<S.Board>;
export type BoardList = Plain<S.BoardList>;
export type Around = Plain<S.Around>;
/** A player's league division on a board with the `league` option: tier, table, zones. */
export type Division = Plain<S.Division>;
export type PlayerSet = Plain<S.PlayerSet>;
export type ArchiveList = Plain<S.ArchiveList>;
export type Archive = Plain<S.Archive>;
export type ArchiveStats = Plain<S.ArchiveStats>;
export type Profile = Plain<S.Profile>;
export type SessionProfile = Plain<z.infer<typeof S.SessionProfile>>;
export type PlayerRank = Plain<S.PlayerRank>;
export type BoardRank = Plain<S.BoardRank>;
export type NicknameReply = Plain<S.NicknameReply>;
/** A prize a board's close granted the player (docs/rewards.md). */
export type Grant = Plain<S.Grant>;
export type Rewards = Plain<S.Rewards>;
export type RewardClaim = Plain<S.RewardClaim>;
export type UnlockReply = Plain<S.UnlockReply>;
export type PlaySessionStarted = Plain<S.PlaySessionStarted>;
export type Message = Plain<S.Message>;
export type GameInfo = Plain<S.GameInfo>;
export type GameStats = Plain<S.GameStats>;
export type PlatformStats = Plain<S.PlatformStats>;
export type Health = Plain<S.Health>;
export type DeviceCode = Plain<z.infer<typeof S.DeviceCodeStarted>>;
export type Approval = Plain<z.infer<typeof S.Approval>>;
export type Migrated = Plain<z.infer<typeof S.Migrated>>;
export type SortBy = Plain<S.SortBy>;
export type EntryMetadata = Plain<Metadata>;
export type BoardSortOrder = Plain<SortOrder>;
export type BoardScoreFormat = Plain<ScoreFormat>;
export type BoardDisplayOptions = Plain<BoardOptions>;
/**
 * A board's review of implausible scores (the developer sets it; absent: off). A flagged or held
 * score's submit answers exactly as any other: there is nothing for a game to handle. A held
 * score shows in its own player's rank and around-me through the gateway, never in direct reads.
 */
export type BoardReview = Plain<Review>;
