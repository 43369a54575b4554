// The built-in provider's pages, rendered on the server: sign in, create an account, sign out,
// and errors. Mobile-first, one small inline stylesheet (allowed by its hash in the CSP), an
// inline SVG mark, no scripts and nothing loaded from anywhere else.
import { createHash } from 'node:crypto';

export const PRODUCT = 'Game Leaderboard';

const CSS = `
*,*::before,*::after{box-sizing:border-box}
:root{color-scheme:light dark;--bg:#f3f5f9;--card:#fff;--text:#1a1f2b;--muted:#5b6475;--line:#c9cfdb;--accent:#2451c8;--accent-hover:#1c41a3;--focus:#2451c8;--error:#b42318;--error-bg:#fef3f2}
@media (prefers-color-scheme:dark){:root{--bg:#11141b;--card:#1a1f2a;--text:#e8ebf1;--muted:#a3abbb;--line:#3a4254;--accent:#6f94ff;--accent-hover:#8eabff;--focus:#8eabff;--error:#ff8a80;--error-bg:#3a1d1b}}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;display:flex;flex-direction:column;align-items:center;padding:24px 16px}
.card{width:100%;max-width:400px;background:var(--card);border-radius:16px;padding:28px 20px 20px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 4px 16px rgba(16,24,40,.06)}
@media (min-width:480px){body{padding-top:10vh}.card{padding:36px 32px 24px}}
.brand{display:flex;align-items:center;gap:10px;font-weight:600;font-size:15px;color:var(--muted);margin-bottom:20px}
.brand svg{flex:none}
h1{font-size:24px;line-height:1.25;margin:0 0 4px;font-weight:650}
.lead{margin:0 0 24px;color:var(--muted);font-size:15px;overflow-wrap:anywhere}
.lead strong{color:var(--text);font-weight:600}
.field{margin-bottom:18px}
label{display:block;font-weight:600;font-size:15px;margin-bottom:6px}
label .optional{font-weight:400;color:var(--muted)}
input{display:block;width:100%;height:48px;padding:0 14px;font:inherit;font-size:16px;color:var(--text);background:var(--card);border:1px solid var(--line);border-radius:10px;outline:none;transition:border-color .15s,box-shadow .15s}
input:focus{border-color:var(--focus);box-shadow:0 0 0 3px color-mix(in srgb,var(--focus) 25%,transparent)}
input[aria-invalid="true"]{border-color:var(--error)}
input[aria-invalid="true"]:focus{box-shadow:0 0 0 3px color-mix(in srgb,var(--error) 25%,transparent)}
.hint{margin:6px 0 0;font-size:14px;color:var(--muted)}
.error{display:flex;gap:6px;align-items:flex-start;margin:8px 0 0;padding:8px 10px;font-size:14px;line-height:1.4;color:var(--error);background:var(--error-bg);border-radius:8px}
.error svg{flex:none;margin-top:1px}
button{font:inherit;cursor:pointer}
.primary{display:block;width:100%;height:48px;margin-top:8px;border:0;border-radius:10px;background:var(--accent);color:#fff;font-weight:600;font-size:16px}
@media (prefers-color-scheme:dark){.primary{color:#0b1020}}
.primary:hover{background:var(--accent-hover)}
.primary:focus-visible,.link:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
a{color:var(--accent);font-weight:600;text-underline-offset:2px}
.switch{margin:20px 0 0;text-align:center;font-size:15px;color:var(--muted)}
.cancel{margin:12px 0 0;text-align:center}
.link{background:none;border:0;padding:8px;color:var(--muted);font-size:14px;text-decoration:underline;text-underline-offset:2px}
.secondary{display:block;width:100%;height:48px;margin-top:10px;border:1px solid var(--line);border-radius:10px;background:transparent;color:var(--text);font-weight:600;font-size:16px}
footer{max-width:400px;margin:20px 0 0;padding:0 8px;text-align:center;font-size:13px;color:var(--muted)}
`;

const CSP = [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
].join('; ');

/** Response headers for every page of the provider's own. */
export const PAGE_HEADERS: Record<string, string> = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
};

export function escapeHtml(text: string): string {
    return text.replace(
        /[&<>"']/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
    );
}

const MARK = `<svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false"><rect width="28" height="28" rx="8" fill="#2451c8"/><rect x="6" y="13" width="4.5" height="9" rx="1.2" fill="#fff" opacity=".75"/><rect x="11.75" y="7" width="4.5" height="15" rx="1.2" fill="#fff"/><rect x="17.5" y="10" width="4.5" height="12" rx="1.2" fill="#fff" opacity=".9"/></svg>`;

const ALERT = `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" stroke-width="1.6"/><rect x="7.2" y="3.8" width="1.6" height="5.2" rx=".8" fill="currentColor"/><circle cx="8" cy="11.4" r="1" fill="currentColor"/></svg>`;

const PASSWORD_NOTE = `Your password is sent only to this ${PRODUCT} server, never to the app or game you are signing in to.`;

function layout(title: string, body: string, footer?: string): string {
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${PRODUCT}</title>
<style>${CSS}</style>
</head>
<body>
<main class="card">
<div class="brand">${MARK}<span>${PRODUCT}</span></div>
${body}
</main>
${footer === undefined ? '' : `<footer>${escapeHtml(footer)}</footer>\n`}</body>
</html>
`;
}

interface FieldSpec {
    name: string;
    label: string;
    type: 'email' | 'password' | 'text';
    autocomplete: string;
    value?: string;
    error?: string;
    /** Marks the field invalid without a message of its own (the message is on another field). */
    invalid?: boolean;
    hint?: string;
    optional?: boolean;
    autofocus?: boolean;
    extra?: string;
}

function field(f: FieldSpec): string {
    const hint = f.error === undefined ? f.hint : undefined; // an error says it already
    const described = [hint === undefined ? '' : `${f.name}-hint`, f.error === undefined ? '' : `${f.name}-error`]
        .filter((id) => id !== '')
        .join(' ');
    const attributes = [
        `id="${f.name}"`,
        `name="${f.name}"`,
        `type="${f.type}"`,
        `autocomplete="${f.autocomplete}"`,
        f.optional === true ? '' : 'required',
        f.value === undefined || f.value === '' ? '' : `value="${escapeHtml(f.value)}"`,
        f.error !== undefined || f.invalid === true ? 'aria-invalid="true"' : '',
        described === '' ? '' : `aria-describedby="${described}"`,
        f.autofocus === true ? 'autofocus' : '',
        f.extra ?? '',
    ].filter((a) => a !== '');
    return `<div class="field">
<label for="${f.name}">${escapeHtml(f.label)}${f.optional === true ? ' <span class="optional">(optional)</span>' : ''}</label>
<input ${attributes.join(' ')}>
${hint === undefined ? '' : `<p class="hint" id="${f.name}-hint">${escapeHtml(hint)}</p>\n`}${f.error === undefined ? '' : `<p class="error" id="${f.name}-error">${ALERT}<span>${escapeHtml(f.error)}</span></p>\n`}</div>`;
}

const EMAIL_EXTRA = 'inputmode="email" autocapitalize="none" spellcheck="false" maxlength="254"';

function continueTo(client: string): string {
    return `<p class="lead">to continue to <strong>${escapeHtml(client)}</strong></p>`;
}

function cancelForm(action: string, csrf: string): string {
    return `<form class="cancel" method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button class="link" type="submit">Cancel and go back</button></form>`;
}

export interface SignInPage {
    client: string;
    action: string;
    signUpUrl: string;
    abortAction: string;
    csrf: string;
    email?: string;
    /** Shown under the password field: wrong credentials or too many attempts. */
    error?: string;
    emailError?: string;
    notice?: string;
}

export function signInPage(p: SignInPage): string {
    const focusPassword =
        p.error !== undefined || (p.email !== undefined && p.email !== '' && p.emailError === undefined);
    return layout(
        'Sign in',
        `<h1>Sign in</h1>
${continueTo(p.client)}
<form method="post" action="${escapeHtml(p.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: p.email, error: p.emailError, invalid: p.error !== undefined, autofocus: !focusPassword, extra: EMAIL_EXTRA })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: p.error, autofocus: focusPassword })}
<button class="primary" type="submit">Sign in</button>
</form>
<p class="switch">New here? <a href="${escapeHtml(p.signUpUrl)}">Create an account</a></p>
${cancelForm(p.abortAction, p.csrf)}`,
        PASSWORD_NOTE,
    );
}

export interface SignUpPage {
    client: string;
    action: string;
    signInUrl: string;
    abortAction: string;
    csrf: string;
    minPasswordLength: number;
    email?: string;
    name?: string;
    errors?: Partial<Record<'email' | 'password' | 'name', string>>;
}

export function signUpPage(p: SignUpPage): string {
    const errors = p.errors ?? {};
    const firstInvalid = (['email', 'password', 'name'] as const).find((f) => errors[f] !== undefined) ?? 'email';
    return layout(
        'Create an account',
        `<h1>Create an account</h1>
${continueTo(p.client)}
<form method="post" action="${escapeHtml(p.action)}" novalidate>
<input type="hidden" name="csrf" value="${escapeHtml(p.csrf)}">
${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: p.email, error: errors.email, autofocus: firstInvalid === 'email', extra: EMAIL_EXTRA })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: errors.password, hint: `At least ${p.minPasswordLength} characters.`, autofocus: firstInvalid === 'password', extra: `minlength="${p.minPasswordLength}"` })}
${field({ name: 'name', label: 'Display name', type: 'text', autocomplete: 'nickname', value: p.name, error: errors.name, optional: true, hint: 'Shown to the apps you sign in to. You can leave it empty.', autofocus: firstInvalid === 'name', extra: 'maxlength="100"' })}
<button class="primary" type="submit">Create account</button>
</form>
<p class="switch">Already have an account? <a href="${escapeHtml(p.signInUrl)}">Sign in</a></p>
${cancelForm(p.abortAction, p.csrf)}`,
        PASSWORD_NOTE,
    );
}

/** A dead end: what happened and what to do, in words for a player. */
export function messagePage(title: string, message: string): string {
    return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p class="lead">${escapeHtml(message)}</p>`);
}

/**
 * oidc-provider's sign-out confirmation; `form` is its own hidden form (id op.logoutForm, with
 * its xsrf token), which these buttons submit.
 */
export function signOutPage(signedInAs: string | undefined, form: string): string {
    return layout(
        'Sign out',
        `<h1>Sign out?</h1>
<p class="lead">${signedInAs === undefined ? `You will be signed out of ${PRODUCT} on this device.` : `You are signed in as <strong>${escapeHtml(signedInAs)}</strong>.`}</p>
${form}
<button class="primary" autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Sign out</button>
<button class="secondary" type="submit" form="op.logoutForm">Stay signed in</button>`,
    );
}
