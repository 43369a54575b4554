// What a shard's view pushes run on (service/view-push.ts): Azle's one-shot timer, and the
// directory's game_views_changed through the inter-canister calls of remote.ts.
import { setTimer } from 'azle';

import { remote } from './remote';
import { pushViews } from './service/directory';
import type { Pusher } from './service/view-push';

export const pusher: Pusher = {
    later: (seconds, run) => void setTimer(seconds, run),
    push: (ctx, gameIds) => pushViews(ctx, remote, gameIds),
};
