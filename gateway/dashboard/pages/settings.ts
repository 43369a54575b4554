// The Settings tab: a game's name and description, its standard boards, a backup, activating it, deleting it.
import { DEFAULT_STANDARD_BOARDS } from '../../../contract/board-options';
import type { GameView } from '../../../contract/canister';
import { backupUrl } from '../../routes/game-backup';
import { choice, field, form, html, type Html } from '../layout';
import { ruleFields } from './board-options';
import { base, doneBox, errorFor, formCard, value, type View } from './view';

/** The game setting `rewardClaims` (contract/rewards.ts), as the form offers it. */
const CLAIMS = {
    client: 'Game clients (API key), signed-in players or your server',
    session: 'Signed-in players or your server',
    server: 'Your server only (server key)',
};

export function settingsTab(game: GameView, v: View): Html {
    return html`${doneBox(v)}
        <div class="grid">
            ${formCard(
                game,
                v,
                'update',
                'Name and description',
                html`${field('name', 'Name', { value: value(v, 'update', 'name', game.name), required: true })}
                    ${field('description', 'Description', { value: value(v, 'update', 'description', game.description) })}
                    <button type="submit">Save</button>`,
            )}
            ${formCard(
                game,
                v,
                'standard-boards',
                'Standard boards',
                html`${ruleFields(v, 'standard-boards', game.standardBoards ?? DEFAULT_STANDARD_BOARDS, 'f-standard')}
                    <button type="submit">Save standard boards</button>`,
                html`<p class="muted">
                    How the all-time, weekly and daily boards rank and keep scores. They can change only while those
                    boards have no entries this period.
                </p>`,
            )}
            ${formCard(
                game,
                v,
                'reward-claims',
                'Reward claims',
                html`${choice('rewardClaims', 'Who may claim rewards', CLAIMS, {
                        selected: value(v, 'reward-claims', 'rewardClaims', game.rewardClaims ?? 'client'),
                        id: 'f-rewardClaims',
                    })} <button type="submit">Save reward claims</button>`,
                html`<p class="muted">
                    Prizes of boards with a prize table are granted at each close. The API key is public: with “Game
                    clients”, anyone who knows a player id can claim that player’s rewards. For rewards that matter, let
                    your server claim them after the <code>reward_granted</code> webhook.
                </p>`,
            )}
            <div class="card">
                <h2>Backup</h2>
                <p class="muted">
                    The game as you see it, in one file: settings, boards, archives, players (ids, nicknames, scores,
                    metadata), achievements and bans. Players' emails and sign-in identities, sessions and the game's
                    keys and webhooks stay here. <code>npm run admin -- import-game &lt;file&gt;</code> runs it on your
                    own machine.
                </p>
                <p>
                    <a class="button secondary" href="${backupUrl(game.gameId)}" download
                        >Download a backup of this game</a
                    >
                </p>
            </div>
            <div class="card">
                <h2>${game.isActive ? 'Deactivate' : 'Activate'}</h2>
                <p class="muted">
                    ${
                        game.isActive
                            ? 'A deactivated game refuses every submit and read with its key until you activate it again.'
                            : 'The game refuses every request with its key until you activate it.'
                    }
                </p>
                ${errorFor(v, 'active')}
                ${form(
                    `${base(game)}/active`,
                    v.csrf,
                    html`<input type="hidden" name="isActive" value="${game.isActive ? 'false' : 'true'}" />
                        <button type="submit" class="${game.isActive ? 'danger' : ''}">
                            ${game.isActive ? 'Deactivate game' : 'Activate game'}
                        </button>`,
                )}
            </div>
            <div class="card">
                <h2>Delete</h2>
                <p class="muted">Deletes the game, its boards, players, archives and logs. This cannot be undone.</p>
                ${errorFor(v, 'delete')}
                ${form(
                    `${base(game)}/delete`,
                    v.csrf,
                    html`${field('confirm', `Type ${game.gameId} to confirm`, { id: 'f-confirm-delete' })}
                        <button type="submit" class="danger">Delete game</button>`,
                )}
            </div>
        </div>`;
}
