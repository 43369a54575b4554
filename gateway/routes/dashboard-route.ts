// What the dashboard's JSON routes (./dashboard-*.ts) share: the path parameters,
// the 404 of another developer's game, and a route that runs one developer operation.
import type { z } from 'zod';

import { PATH_ID } from '../../contract/rules';
import { WEBHOOK_ID } from '../../contract/webhook-schemas';
import { route, type PathParam, type Route, type RouteInput } from './route';
import { replyOf, type DevGame, type Operation } from '../developer/operation';

export const BASE = '/dashboard/api';
export const NOT_OWNED = 'not one of your games (every game of another developer is the same 404)';
export const gameId: PathParam = { pattern: PATH_ID, description: 'one of your games' };
export const webhookId: PathParam = { pattern: WEBHOOK_ID, description: 'an endpoint of the game (whk_...)' };

/** The session and game of the path, as every per-game method takes them. */
export const own = ({ caller, params }: RouteInput<unknown, 'developer'>): DevGame => ({
    sessionHash: caller.sessionHash,
    gameId: params.gameId,
});

type DevInput<B extends z.ZodType> = RouteInput<z.output<B>, 'developer'>;

/**
 * A developer's route that runs `op`: with the session and game of the path (and what `dev` adds
 * from it) on the checked body; `answer` shapes the reply where the JSON says more or less.
 */
export function operationRoute<B extends z.ZodType, D extends z.ZodType, I, X, R>(
    r: Omit<Route<B, D, 'developer'>, 'auth' | 'handle'> & {
        op: Operation<I, DevGame & X, R>;
        dev?: (input: DevInput<B>) => X;
        input?: (input: DevInput<B>) => I;
        answer?: (reply: R, input: DevInput<B>) => z.output<D>;
    },
): Route {
    const { op, dev, input, answer, ...rest } = r;
    return route<B, D, 'developer'>({
        ...rest,
        auth: 'developer',
        async handle(ctx, i) {
            const reply = await replyOf(
                op.run(ctx, { ...own(i), ...(dev?.(i) as X) }, input === undefined ? (i.body as I) : input(i)),
            );
            return answer === undefined ? (reply as z.output<D>) : answer(reply, i);
        },
    });
}
