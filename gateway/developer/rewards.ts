// A game's rewards as its developer runs them: who may claim them (the game setting
// `rewardClaims`), and the grants of a board's closes (docs/rewards.md).
import { RewardClaimsBody } from '../../contract/dashboard-schemas';
import { gameSetting } from './games';
import { method } from './operation';

/** Who may claim, as it stands after the change. */
export const rewardClaims = gameSetting(
    RewardClaimsBody,
    (body) => body,
    (game) => ({ rewardClaims: game.rewardClaims ?? 'client' }),
);

/** A page of one close's grants of a board (the newest close unless `periodStart` names one). */
export const grants = method('dev_grants');
