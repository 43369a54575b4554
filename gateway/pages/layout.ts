// The frame of the gateway's HTML pages (the link page; the dashboard has its own frame): mobile first,
// system fonts, inline CSS, no external requests of any kind; and the headers every such page gets.
import type { Response } from 'express';

export const escapeHtml = (text: string): string =>
    text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
    constructor(readonly text: string) {}
    toString(): string {
        return this.text;
    }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
    let out = strings[0];
    values.forEach((v, i) => {
        const items = Array.isArray(v) ? v : [v];
        for (const item of items)
            out +=
                item instanceof Html
                    ? item.text
                    : item === undefined || item === null || item === false
                      ? ''
                      : escapeHtml(String(item));
        out += strings[i + 1];
    });
    return new Html(out);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#17202e;background:#eef1f6;min-height:100vh;display:flex;flex-direction:column;align-items:center}
main{width:100%;max-width:440px;padding:24px 16px 40px}
.card{background:#fff;border-radius:16px;box-shadow:0 1px 3px rgba(16,24,40,.12),0 8px 24px rgba(16,24,40,.06);padding:28px 24px}
.brand{font-weight:700;color:#3451b2;letter-spacing:.02em;font-size:14px;text-transform:uppercase;margin:0 0 12px}
h1{font-size:24px;line-height:1.25;margin:0 0 12px}
p{margin:0 0 16px}
.muted{color:#5b6577;font-size:15px}
label{display:block;font-weight:600;margin:0 0 6px}
input[type=text],input[type=email],input[type=password]{width:100%;font:inherit;padding:12px 14px;border:1.5px solid #c5ccd8;border-radius:10px;background:#fff}
input:focus{outline:3px solid #b9c7f5;border-color:#3451b2}
.code{font:700 32px/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.12em;text-align:center;background:#f3f5fa;border:1.5px dashed #9aa7c2;border-radius:12px;padding:14px;margin:0 0 16px}
.code-input{font:700 24px/1.2 ui-monospace,Menlo,Consolas,monospace!important;letter-spacing:.12em;text-transform:uppercase;text-align:center}
button,.button{display:block;width:100%;font:600 17px/1.2 inherit;font-family:inherit;padding:14px 16px;margin:10px 0 0;border-radius:10px;border:1.5px solid #3451b2;background:#3451b2;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#3451b2}
button:focus-visible,.button:focus-visible{outline:3px solid #b9c7f5}
.error{color:#b42318;background:#fef3f2;border:1px solid #fecdca;border-radius:10px;padding:10px 12px;margin:0 0 16px}
.ok{color:#067647;font-size:44px;line-height:1;margin:0 0 8px}
.field{margin:0 0 16px}
.field .hint{font-size:14px;color:#5b6577;margin:6px 0 0}
footer{color:#5b6577;font-size:13px;text-align:center;margin-top:18px}
@media (min-width:720px){main{padding-top:64px}}`;

// Referrer policy same-origin: the page's own forms carry their Origin (the CSRF checks need
// it; under no-referrer Chromium sends `Origin: null`), other sites learn nothing.
export function page(title: string, body: Html): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body.text}</main></body></html>`;
}

/**
 * Sends a page of a sign-in flow: never cached, never framed, nothing loaded from elsewhere;
 * forms may post only here and to the identity providers (`scripts`: this origin's scripts).
 */
export function sendPage(
    res: Response,
    status: number,
    providers: ReadonlyArray<{ issuer: string }>,
    body: string,
    o: { scripts?: boolean } = {},
): void {
    const origins = providers.map((p) => new URL(p.issuer).origin).join(' ');
    const scripts = o.scripts === true ? "script-src 'self'; connect-src 'self'; " : '';
    res.status(status)
        .set({
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': 'no-store',
            'X-Frame-Options': 'DENY',
            'Content-Security-Policy': `default-src 'none'; ${scripts}style-src 'unsafe-inline'; img-src data:; form-action 'self' ${origins}; frame-ancestors 'none'; base-uri 'none'`,
        })
        .send(body);
}
