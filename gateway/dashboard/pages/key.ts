// The API key tab: the game's key, rotating it, and a submit in curl, Godot, Unity and JavaScript.
import type { GameView } from '../../../contract/canister';
import { form, html, type Html } from '../layout';
import { base, doneBox, errorFor, type View } from './view';

export function keyTab(game: GameView, publicUrl: string, v: View): Html {
    const k = game.apiKey;
    const curl = `curl -X POST ${publicUrl}/scores \\
  -H 'Content-Type: application/json' -H 'X-API-Key: ${k}' -H 'X-Game-ID: ${game.gameId}' \\
  -d '{"playerId":"dev_1700000000_a1b2c3d4","gameId":"${game.gameId}","score":1200,"streak":4}'`;
    const godot = `var http := HTTPRequest.new()
add_child(http)
var body := JSON.stringify({"playerId": player_id, "gameId": "${game.gameId}", "score": score, "streak": streak})
http.request("${publicUrl}/scores",
    ["Content-Type: application/json", "X-API-Key: ${k}", "X-Game-ID: ${game.gameId}"],
    HTTPClient.METHOD_POST, body)`;
    const unity = `var body = JsonUtility.ToJson(new Submit { playerId = playerId, gameId = "${game.gameId}", score = score, streak = streak });
using var req = new UnityWebRequest("${publicUrl}/scores", "POST");
req.uploadHandler = new UploadHandlerRaw(System.Text.Encoding.UTF8.GetBytes(body));
req.downloadHandler = new DownloadHandlerBuffer();
req.SetRequestHeader("Content-Type", "application/json");
req.SetRequestHeader("X-API-Key", "${k}");
req.SetRequestHeader("X-Game-ID", "${game.gameId}");
yield return req.SendWebRequest();`;
    const js = `await fetch('${publicUrl}/scores', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', 'X-API-Key': '${k}', 'X-Game-ID': '${game.gameId}' },
  body: JSON.stringify({ playerId, gameId: '${game.gameId}', score, streak }),
});`;
    return html`${doneBox(v)}
        <div class="card">
            <h2>API key</h2>
            <p class="muted">
                Ship it inside your game: it identifies the game, and the canister checks it on every write.
            </p>
            <div class="field">
                <label for="api-key">Current key</label>
                <div class="key">
                    <input id="api-key" type="text" readonly value="${k}" />
                    <button type="button" class="secondary" data-copy="api-key">Copy</button>
                </div>
            </div>
            ${errorFor(v, 'rotate')}
            ${form(
                `${base(game)}/rotate`,
                v.csrf,
                html`<label class="check"
                        ><input type="checkbox" name="confirm" value="yes" required /> I understand the current key
                        stops working at once</label
                    >
                    <button type="submit" class="danger">Rotate key</button>`,
            )}
        </div>
        <div class="card">
            <h2>Submit a score</h2>
            <p><strong>curl</strong></p>
            <pre id="snippet-curl">${curl}</pre>
            <p><strong>Godot (GDScript)</strong></p>
            <pre>${godot}</pre>
            <p><strong>Unity (C#)</strong></p>
            <pre>${unity}</pre>
            <p><strong>JavaScript (fetch)</strong></p>
            <pre>${js}</pre>
        </div>`;
}
