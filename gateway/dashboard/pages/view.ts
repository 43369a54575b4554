// What every page of a signed-in developer shows besides its data: the CSRF token of its forms,
// the notice after an action, a failed form's error next to it and what it held.
import { errorBox, form, html, type Html } from '../layout';
import type { GameView } from '../../../contract/canister';
import type { DeliveryAttempt } from '../../../contract/webhooks';

/** What the Webhooks tab shows once after its form: a new endpoint's secret, a test's answer. */
export interface WebhookShown {
    secret?: { webhookId: string; url: string; secret: string };
    test?: { webhookId: string; attempt: DeliveryAttempt };
}

/** What every page of a signed-in developer gets: the CSRF token, a message, a form's error. */
export interface View {
    csrf: string;
    done?: string;
    /** The failed form's action name and the canister's message. */
    error?: { action: string; message: string };
    /** What the failed form held, to show it again. */
    values?: Record<string, string | undefined>;
    /** What the Webhooks tab shows once after its form: a new endpoint's secret, a test's answer. */
    webhook?: WebhookShown;
    /** A server key just made: shown on this page only, never again. */
    serverKey?: string;
}

export const errorFor = (v: View, action: string): Html =>
    errorBox(v.error?.action === action ? v.error.message : undefined);
export const doneBox = (v: View): Html =>
    v.done === undefined ? html`` : html`<p class="done" role="status">${v.done}</p>`;
export const value = (v: View, action: string, name: string, fallback: string | number = ''): string | number =>
    v.error?.action === action ? (v.values?.[name] ?? fallback) : fallback;

/** The path of a game's pages. */
export const base = (game: GameView): string => `/dashboard/games/${game.gameId}`;

/** A card of one form of a game (POST <game>/<action>): its title, what it does, its error, the form. */
export const formCard = (game: GameView, v: View, action: string, title: string, body: Html, intro = html``): Html =>
    html`<div class="card">
        <h2>${title}</h2>
        ${intro} ${errorFor(v, action)} ${form(`${base(game)}/${action}`, v.csrf, body)}
    </div>`;
