// The dashboard's frame: a top bar, the game's tabs, messages, and the small form and table
// helpers every tab uses. Inline CSS, system fonts, no external requests; works on a phone.
import { escapeHtml, html, type Html } from '../pages/layout';

export { html, type Html };

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#17202e;background:#eef1f6}
header{background:#1f2a44;color:#fff}
header .bar{max-width:1100px;margin:0 auto;padding:12px 16px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
header a{color:#fff;text-decoration:none;font-weight:700}
header .who{margin-left:auto;font-size:14px;color:#c9d3ea;display:flex;gap:10px;align-items:center}
header form{margin:0}
header button{margin:0;padding:6px 12px;font-size:14px;width:auto;background:transparent;border-color:#8ea2d8}
main{max-width:1100px;margin:0 auto;padding:20px 16px 48px}
h1{font-size:26px;margin:0 0 6px}
h2{font-size:19px;margin:0 0 12px}
p{margin:0 0 12px}
.muted{color:#5b6577;font-size:14px}
nav.tabs{display:flex;gap:4px;flex-wrap:wrap;margin:14px 0 18px;border-bottom:2px solid #d5dbe7}
nav.tabs a{padding:8px 14px;border-radius:8px 8px 0 0;text-decoration:none;color:#3451b2;font-weight:600}
nav.tabs a[aria-current=page]{background:#fff;border:2px solid #d5dbe7;border-bottom-color:#fff;margin-bottom:-2px;color:#17202e}
.grid{display:grid;gap:16px;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));align-items:start}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.1);padding:18px;margin:0 0 16px;overflow-x:auto}
label{display:block;font-weight:600;margin:0 0 4px;font-size:14px}
.field{margin:0 0 12px}
.hint{font-size:13px;color:#5b6577;margin:4px 0 0}
input[type=text],input[type=number],input[type=search],select,textarea{width:100%;font:inherit;padding:8px 10px;border:1.5px solid #c5ccd8;border-radius:8px;background:#fff}
input:focus,select:focus,textarea:focus{outline:3px solid #b9c7f5;border-color:#3451b2}
.check{display:flex;gap:8px;align-items:center;font-weight:600;font-size:14px;margin:0 0 12px}
button,.button{display:inline-block;font:600 15px/1.2 inherit;font-family:inherit;padding:9px 14px;border-radius:8px;border:1.5px solid #3451b2;background:#3451b2;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#3451b2}
button.danger{background:#b42318;border-color:#b42318}
.row{display:flex;gap:8px;flex-wrap:wrap;align-items:end}
.row .field{flex:1 1 140px}
.row.top{align-items:start}
.error{color:#b42318;background:#fef3f2;border:1px solid #fecdca;border-radius:8px;padding:8px 10px;margin:0 0 12px}
.warnbox{color:#93370d;background:#fffaeb;border:1px solid #fedf89;border-radius:8px;padding:8px 10px;margin:0 0 16px}
.done{color:#067647;background:#ecfdf3;border:1px solid #abefc6;border-radius:8px;padding:8px 10px;margin:0 0 16px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e4e8f0;vertical-align:top}
th{color:#5b6577;font-weight:600}
td form{display:inline;margin:0}
td button{padding:4px 8px;font-size:13px}
.num{font-variant-numeric:tabular-nums;white-space:nowrap}
code,pre,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
pre{background:#f3f5fa;border-radius:8px;padding:10px;overflow-x:auto;white-space:pre}
.key{display:flex;gap:8px}
.key input{font-family:ui-monospace,Menlo,Consolas,monospace}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:700;background:#e4e8f0}
.badge.on{background:#dcfae6;color:#067647}.badge.off{background:#fee4e2;color:#b42318}
.badge.warn{background:#fef0c7;color:#93370d}
h3{font-size:16px;margin:16px 0 8px}
.card>h3:first-child{margin-top:0}
.url{word-break:break-all;font-size:16px}
.ids{word-break:break-all}
.actions button,.actions .button{font-size:14px;padding:7px 12px}
.secret{border:2px solid #3451b2}
@media (max-width:640px){.wide{display:none}}
@media (max-width:640px){.log thead{display:none}.log tr{display:block;border-bottom:1px solid #e4e8f0;padding:6px 0}
.log td{display:block;border:0;padding:1px 0}.log td[data-label]::before{content:attr(data-label) ": ";color:#5b6577;font-weight:600}}
fieldset{border:1.5px solid #d5dbe7;border-radius:8px;margin:0 0 12px;padding:8px 12px}
legend{font-weight:600;font-size:14px;padding:0 4px}
.check.kind{align-items:start;font-weight:400}
.check.kind input{margin-top:4px}
.actions{align-items:start;margin:0 0 8px}
.actions form{margin:0}
summary.button{list-style:none}
summary.button::-webkit-details-marker{display:none}
details[open] summary{margin-bottom:8px}
canvas{max-width:100%}
`;

export interface Frame {
    title: string;
    /** The signed-in developer's email, for the top bar. */
    email?: string;
    /** The session's CSRF token (sign-out form). */
    csrf?: string;
    /** A notice about the whole service above the page (dashboard/cycles-notice.ts). */
    notice?: Html;
}

/** A whole dashboard page. `scripts` are paths on this origin (the analytics charts). */
export function dashboardPage(frame: Frame, body: Html, scripts: string[] = []): string {
    const who =
        frame.email === undefined
            ? ''
            : html`<span class="who"
                  ><span>${frame.email || 'Signed in'}</span>
                  <form method="post" action="/dashboard/sign-out">
                      <input type="hidden" name="csrf" value="${frame.csrf}" /><button type="submit">Sign out</button>
                  </form></span
              >`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(frame.title)} · Leaderboard dashboard</title><style>${STYLE}</style></head>
<body><header><div class="bar"><a href="/dashboard">Leaderboard dashboard</a>${who}</div></header><main>${frame.notice?.text ?? ''}${body.text}</main>${scripts
        .map((s) => `<script src="${escapeHtml(s)}"></script>`)
        .join('')}</body></html>`;
}

/** An error shown next to the form it belongs to, or nothing. */
export const errorBox = (message: string | undefined): Html =>
    message === undefined ? html`` : html`<p class="error" role="alert">${message}</p>`;

/** A labelled text input. */
export function field(
    name: string,
    label: string,
    o: { value?: string | number; type?: string; hint?: string; required?: boolean; id?: string } = {},
): Html {
    const id = o.id ?? `f-${name}`;
    return html`<div class="field">
        <label for="${id}">${label}</label>
        <input
            id="${id}"
            name="${name}"
            type="${o.type ?? 'text'}"
            value="${o.value ?? ''}"
            ${o.required ? html`required` : ''}
        />
        ${o.hint === undefined ? '' : html`<p class="hint">${o.hint}</p>`}
    </div>`;
}

/** A labelled select of `[value, text]` options, `selected` chosen. */
export function choice(
    name: string,
    label: string,
    /** value: the text shown, in the order shown. */
    options: Readonly<Record<string, string>>,
    o: { selected?: string | number; hint?: string; id?: string } = {},
): Html {
    const id = o.id ?? `f-${name}`;
    return html`<div class="field">
        <label for="${id}">${label}</label>
        <select id="${id}" name="${name}">
            ${Object.entries(options).map(
                ([value, text]) =>
                    html`<option value="${value}" ${String(o.selected) === value ? html`selected` : ''}>
                        ${text}
                    </option>`,
            )}
        </select>
        ${o.hint === undefined ? '' : html`<p class="hint">${o.hint}</p>`}
    </div>`;
}

/** A form that posts to `action` with the CSRF token. */
export function form(action: string, csrf: string, body: Html, o: { get?: boolean } = {}): Html {
    return o.get === true
        ? html`<form method="get" action="${action}">${body}</form>`
        : html`<form method="post" action="${action}">
              <input type="hidden" name="csrf" value="${csrf}" />${body}
          </form>`;
}

/** Nanoseconds (contract times) as a readable UTC time. */
export const when = (ns: number): string =>
    ns === 0 ? '—' : new Date(Math.floor(ns / 1e6)).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** A table: its column headings over its rows (each a `<tr>`). */
export const table = (headings: string[], rows: Html | Html[]): Html =>
    html`<table>
        <thead>
            <tr>
                ${headings.map((h) => html`<th>${h}</th>`)}
            </tr>
        </thead>
        <tbody>
            ${rows}
        </tbody>
    </table>`;
