// The dashboard's sign-in page: a button per configured identity provider, and why the last
// attempt failed.
import type { ProviderConfig } from '../../sign-in/providers';
import { dashboardPage, html } from '../layout';

export function signInPage(providers: readonly ProviderConfig[], message?: string): string {
    const buttons = providers.map(
        (p) =>
            html`<form method="post" action="/dashboard/sign-in">
                <input type="hidden" name="provider" value="${p.name}" /><button type="submit">${p.label}</button>
            </form>`,
    );
    return dashboardPage(
        { title: 'Sign in' },
        html`<div class="card" style="max-width:460px">
            <h1>Sign in</h1>
            <p class="muted">Register your games, manage their keys, boards and anti-cheat settings.</p>
            ${message === undefined ? '' : html`<p class="error" role="alert">${message}</p>`}
            ${buttons.length === 0 ? html`<p class="error">No sign-in method is configured on this server.</p>` : buttons}
        </div>`,
    );
}
