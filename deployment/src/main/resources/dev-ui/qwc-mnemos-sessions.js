import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';

/**
 * Mnemos' "Sessions and traces" page: pick a user, see their live sessions and the newest step traces across them.
 * Everything comes from MnemosDevUiService over the Dev UI's JSON-RPC; values are rendered as text by lit.
 */
export class QwcMnemosSessions extends LitElement {

    static TRACES = 20;

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 0.5em 1em; }
        .users { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
        .users button.picked { font-weight: bold; }
        table { border-collapse: collapse; }
        th, td { text-align: left; padding: 0.2em 0.8em 0.2em 0; vertical-align: top; }
        .trace { border-top: 1px solid var(--lumo-contrast-10pct, #ddd); padding: 0.4em 0; }
        pre { white-space: pre-wrap; margin: 0.3em 0; }
        .error { color: var(--lumo-error-text-color, #c00); }
        .muted { color: var(--lumo-secondary-text-color, #666); }
    `;

    static properties = {
        _users: { state: true },
        _user: { state: true },
        _sessions: { state: true },
        _traces: { state: true },
        _error: { state: true },
    };

    jsonRpc = new JsonRpc(this);

    constructor() {
        super();
        this._users = [];
        this._user = null;
        this._sessions = [];
        this._traces = [];
        this._error = null;
    }

    connectedCallback() {
        super.connectedCallback();
        this.jsonRpc.users().then(r => { this._users = r.result; }, e => this._failed(e));
    }

    render() {
        return html`
            <div class="users">
                <span>User:</span>
                ${this._users.map(u => html`<button class=${u === this._user ? 'picked' : ''}
                        @click=${() => this._pick(u)}>${u}</button>`)}
                <input id="user" placeholder="any user id" @keydown=${e => e.key === 'Enter' && this._pick(e.target.value.trim())}>
                <button id="open" @click=${() => this._pick(this.renderRoot.querySelector('#user').value.trim())}>Open</button>
                ${this._user ? html`<button id="refresh" @click=${() => this._pick(this._user)}>Refresh</button>` : ''}
            </div>
            ${this._error ? html`<div class="error" id="error">${this._error}</div>` : ''}
            ${this._user ? this._renderUser() : html`<div class="muted">Pick a user: the users with sessions in Redis are listed.</div>`}
        `;
    }

    _renderUser() {
        return html`
            <h3>Live sessions of ${this._user}</h3>
            ${this._sessions.length === 0 ? html`<div class="muted">No live session.</div>` : html`
                <table id="sessions">
                    <tr><th>Session</th><th>Goal</th><th>Version</th><th>Plans</th><th>Updated</th></tr>
                    ${this._sessions.map(s => html`<tr>
                        <td>${s.sessionId}</td><td dir="auto">${s.goal ?? ''}</td><td>${s.version}</td>
                        <td>${s.plans}</td><td>${s.updatedAt}</td></tr>`)}
                </table>`}
            <h3>Latest step traces</h3>
            ${this._traces.length === 0 ? html`<div class="muted">No step trace in the live sessions.</div>` : html`
                <div id="traces">${this._traces.map(t => this._renderTrace(t))}</div>`}
        `;
    }

    _renderTrace(t) {
        return html`<div class="trace">
            <div><b class="step">${t.step}</b> wrote v${t.version} of ${t.sessionId} at ${t.at}
                <span class="muted">(${t.method})</span></div>
            <div class="muted">read v${t.readVersion}${t.retries ? `, ${t.retries} retries` : ''}; profile ${t.profile};
                block ${t.tokens}/${t.budget} tokens; load ${t.loadMillis} ms, render ${t.renderMillis} ms,
                model ${t.modelMillis} ms, write ${t.writeMillis} ms</div>
            <details><summary>Injected block</summary><pre dir="auto">${t.block ?? ''}</pre></details>
        </div>`;
    }

    _pick(user) {
        if (!user) {
            return;
        }
        this._user = user;
        this._error = null;
        Promise.all([
            this.jsonRpc.sessions({ userId: user }),
            this.jsonRpc.latestTraces({ userId: user, limit: QwcMnemosSessions.TRACES }),
        ]).then(([sessions, traces]) => {
            this._sessions = sessions.result;
            this._traces = traces.result;
        }, e => this._failed(e));
    }

    _failed(e) {
        this._sessions = [];
        this._traces = [];
        this._error = 'Mnemos could not answer: ' + (e?.error?.message ?? e?.message ?? e);
    }
}
customElements.define('qwc-mnemos-sessions', QwcMnemosSessions);
