// A game's pages: its name, status and ID above the tabs (Settings, API key, Boards, Security,
// Moderation, Webhooks, Analytics), the current one marked.
import type { GameView } from '../../../contract/canister';
import { html, type Html } from '../layout';

export const TABS = ['settings', 'key', 'boards', 'security', 'moderation', 'webhooks', 'analytics'] as const;
export type Tab = (typeof TABS)[number];
const TAB_LABEL: Record<Tab, string> = {
    settings: 'Settings',
    key: 'API key',
    boards: 'Boards',
    security: 'Security',
    moderation: 'Moderation',
    webhooks: 'Webhooks',
    analytics: 'Analytics',
};

export function gameFrame(game: GameView, tab: Tab, body: Html): Html {
    const tabs = TABS.map(
        (t) =>
            html`<a href="/dashboard/games/${game.gameId}/${t}" ${t === tab ? html`aria-current="page"` : ''}
                >${TAB_LABEL[t]}</a
            >`,
    );
    return html`<p class="muted"><a href="/dashboard">← All games</a></p>
        <h1>
            ${game.name}
            <span class="badge ${game.isActive ? 'on' : 'off'}">${game.isActive ? 'active' : 'inactive'}</span>
        </h1>
        <p class="muted mono">${game.gameId}</p>
        <nav class="tabs" aria-label="Game sections">${tabs}</nav>
        ${body}`;
}
