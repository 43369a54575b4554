// The soak's direct readers: board reads straight from the canisters as the banner prints
// them, on the certifying domain (`<replica>/games/...?canisterId=<directory>`, following the
// 302 to the game's shard) and on the raw domain (`<directory>.raw.localhost`), each by a client
// that sends few headers (an SDK, curl) and by a "browser" that sends what Chromium sends.
// A raw-domain answer is live and uncertified: one that carries a certificate was taken for
// a certifying-domain read.
import { anonymousId, pick, think, type Soak } from './context';
import { direct } from './http';

/** The headers Chromium sends with a page's cross-origin fetch of a board. */
export function chromiumHeaders(pageOrigin: string): Record<string, string> {
    return {
        'User-Agent':
            'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        Accept: '*/*',
        'Accept-Language': 'en-US,en;q=0.9',
        'Accept-Encoding': 'gzip, deflate, br',
        'Cache-Control': 'no-cache',
        Pragma: 'no-cache',
        Origin: pageOrigin,
        Referer: `${pageOrigin}/demo`,
        'Sec-Fetch-Site': 'cross-site',
        'Sec-Fetch-Mode': 'cors',
        'Sec-Fetch-Dest': 'empty',
        'sec-ch-ua': '"Chromium";v="131", "Not_A Brand";v="24"',
        'sec-ch-ua-mobile': '?1',
        'sec-ch-ua-platform': '"Android"',
        Connection: 'keep-alive',
    };
}

/** What an SDK's HTTP stack sends (UnityWebRequest: its agent and version). */
const SDK_HEADERS = {
    'User-Agent': 'UnityPlayer/2022.3.10f1 (UnityWebRequest/1.0, libcurl/8.1.1-DEV)',
    'X-Unity-Version': '2022.3.10f1',
};

export type Domain = 'certifying' | 'raw';

/** A reader of `domain`, as an SDK (few headers) or a browser (a dozen). */
export async function directReader(s: Soak, domain: Domain, browser: boolean): Promise<void> {
    const headers = browser ? chromiumHeaders(new URL(s.base).origin) : SDK_HEADERS;
    const kind = `direct ${domain}${browser ? ' (browser)' : ''}`;
    const replica = new URL(s.replicaUrl);
    const at = (path: string): string =>
        domain === 'raw'
            ? `http://${s.directory}.raw.localhost:${replica.port}${path}`
            : `${s.replicaUrl}${path}${path.includes('?') ? '&' : '?'}canisterId=${s.directory}`;
    while (s.running()) {
        await think(1000, 3000);
        const game = pick([s.games.demo, s.games.dev]);
        const g = game.id;
        const board = pick(game.boards).id;
        const around = pick(game.players.length > 0 ? game.players : [anonymousId()]);
        const [path, allowed] = pick<[string, number[]]>([
            [`/games/${g}/scoreboards`, [200]],
            [`/games/${g}/scoreboards/${board}`, [200]],
            [`/games/${g}/scoreboards/${board}?limit=10`, [200]],
            [`/games/${g}/scoreboards/weekly/archives`, [200]],
            [`/games/${g}/archives/stats`, [200]],
            [`/games/${g}/scoreboards/all-time/around?playerId=${around}&before=2&after=2`, [200, 404]],
        ]);
        const a = await direct(s.rec, kind, at(path), headers, s.replicaUrl, allowed);
        if (a === undefined) continue;
        if (domain === 'raw' && a.headers['ic-certificate'] !== undefined)
            s.rec.fail('raw', `${kind} GET ${a.url}: answered with an IC-Certificate`);
        if (a.status === 200 && a.body?.ok !== true)
            s.rec.fail('envelope', `${kind} GET ${a.url} -> 200 ${a.text.slice(0, 200)}`);
    }
}
