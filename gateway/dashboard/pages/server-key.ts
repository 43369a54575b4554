// The Security tab's server key card: create or rotate the key (shown once, with a copy button and
// the warning never to ship it in a client), revoke it, its creation date, and the two server
// settings: server-only submits, and server submits skipping caps and time validation.
import type { GameView } from '../../../contract/canister';
import { form, html, when, type Html } from '../layout';
import { base, errorFor, type View } from './view';

export function serverKeyCard(game: GameView, v: View): Html {
    const has = game.serverKeyCreatedAt !== undefined;
    const shown =
        v.serverKey === undefined
            ? html``
            : html`<div class="field" id="new-server-key">
                  <label for="server-key">Your new server key: copy it now, it is shown only this once</label>
                  <div class="key">
                      <input id="server-key" type="text" readonly value="${v.serverKey}" />
                      <button type="button" class="secondary" data-copy="server-key">Copy</button>
                  </div>
                  <p class="error" role="alert">
                      Keep it on your game's server only. Never ship it in a game client, a web page or a repository:
                      whoever holds it can write scores for any of your players.
                  </p>
              </div>`;
    return html`<div class="card" id="server-key-card">
        <h2>Server key</h2>
        <p class="muted">
            For your game's own backend: send it as <code>Authorization: Bearer &lt;key&gt;</code> to write scores and
            achievements for any of your players and to read the event feed (<code>GET /events</code>). Only from your
            server: a game client or a web page that holds it has leaked it.
        </p>
        ${shown}
        <p id="server-key-status">
            ${
                has
                    ? html`A server key exists, made <strong>${when(game.serverKeyCreatedAt!)}</strong>.`
                    : html`This game has no server key.`
            }
        </p>
        ${errorFor(v, 'server-key')}
        ${form(
            `${base(game)}/server-key`,
            v.csrf,
            has
                ? html`<label class="check"
                          ><input type="checkbox" name="confirm" value="yes" required /> I understand the current server
                          key stops working at once</label
                      >
                      <button type="submit" class="danger">Rotate server key</button>`
                : html`<button type="submit">Create server key</button>`,
        )}
        ${
            has
                ? html`${errorFor(v, 'server-key-revoke')}
                  ${form(
                      `${base(game)}/server-key-revoke`,
                      v.csrf,
                      html`<button type="submit" class="secondary">Revoke server key</button>`,
                  )}`
                : ''
        }
        <h3>Server-only submits</h3>
        ${errorFor(v, 'server-settings')}
        ${form(
            `${base(game)}/server-settings`,
            v.csrf,
            html`<label class="check"
                    ><input
                        type="checkbox"
                        name="serverOnly"
                        value="true"
                        ${game.serverOnly === true ? html`checked` : ''}
                    />
                    Accept scores and achievement unlocks from the server key only (the public API key gets 403)</label
                >
                <label class="check"
                    ><input
                        type="checkbox"
                        name="serverSkipsChecks"
                        value="true"
                        ${game.serverSkipsChecks === true ? html`checked` : ''}
                    />
                    Skip caps and time validation for server submits</label
                >
                <button type="submit">Save server settings</button>`,
        )}
    </div>`;
}
