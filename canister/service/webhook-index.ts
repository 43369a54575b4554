// The heap index of webhook endpoints: games with endpoints and their records, write-through
// copies of Store.webhooks, so that the delivery loop and the event log look at endpoints
// without a stable read (and never at games without any).
import type { Ctx } from '../state/context';
import type { WebhookRecord } from '../state/records';

/**
 * Endpoints by game, with their records (write-through copies of Store.webhooks): webhook_due
 * and webhook_work look at these and never at games without endpoints. Built from the game
 * records at start (`loadWebhooks`, also on first use in native tests).
 */
export interface Index {
    games: Set<string>;
    records: Map<string, WebhookRecord>;
    /** Where the next webhook_work starts among the games (turns go round). */
    turn: number;
}

const indexes = new WeakMap<Ctx, Index>();
export const keyOf = (gameId: string, webhookId: string): string => `${gameId}/${webhookId}`;

/** Builds the index from the game records (canister start, after loadGames). */
export function loadWebhooks(ctx: Ctx): void {
    const index: Index = { games: new Set(), records: new Map(), turn: 0 };
    for (const [gameId, game] of ctx.games) {
        if ((game.record.webhooks ?? []).length === 0) continue;
        index.games.add(gameId);
        for (const { webhookId } of game.record.webhooks ?? []) {
            const record = ctx.store.webhooks.get(keyOf(gameId, webhookId));
            if (record !== undefined) index.records.set(keyOf(gameId, webhookId), record);
        }
    }
    indexes.set(ctx, index);
}

export function indexOf(ctx: Ctx): Index {
    let index = indexes.get(ctx);
    if (index === undefined) {
        loadWebhooks(ctx);
        index = indexes.get(ctx)!;
    }
    return index;
}

/** An endpoint's record, if the game (as it is now) has that endpoint. */
export function find(ctx: Ctx, gameId: string, webhookId: string): WebhookRecord | undefined {
    const game = ctx.games.get(gameId);
    if (game === undefined || !(game.record.webhooks ?? []).some((w) => w.webhookId === webhookId)) return undefined;
    const index = indexOf(ctx);
    const key = keyOf(gameId, webhookId);
    let record = index.records.get(key);
    if (record === undefined) {
        record = ctx.store.webhooks.get(key);
        if (record !== undefined) index.records.set(key, record);
    }
    return record;
}

export function put(ctx: Ctx, gameId: string, record: WebhookRecord): void {
    const index = indexOf(ctx);
    ctx.store.webhooks.set(keyOf(gameId, record.webhookId), record);
    index.records.set(keyOf(gameId, record.webhookId), record);
    index.games.add(gameId);
}
