import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';

const ms = millis => `${millis.toFixed(1)} ms`;

/**
 * Mnemos' "Sessions and traces" page: pick a user, see their live sessions and the newest step traces across them.
 * Everything comes from MnemosDevUiService over the Dev UI's JSON-RPC; values are rendered as text by lit.
 */
export class QwcMnemosSessions extends LitElement {

    static TRACES = 20;

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 0.5em 1em; }
        .users { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; }
        table { border-collapse: collapse; }
        th, td { text-align: left; padding: 0.2em 0.8em 0.2em 0; vertical-align: top; }
        .trace { border-top: 1px solid var(--lumo-contrast-10pct, #ddd); padding: 0.4em 0; }
        pre { white-space: pre-wrap; margin: 0.3em 0; }
        .tools td { font-family: var(--lumo-font-family-monospace, monospace); word-break: break-word; }
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
                <label for="users">User:</label>
                <select id="users" @change=${e => this._pick(e.target.value)}>
                    <option value="" ?selected=${!this._users.includes(this._user)}>${this._users.length
                        ? `one of ${this._users.length} with sessions in Redis…` : 'no user has a session in Redis'}</option>
                    ${this._users.map(u => html`<option .value=${u} ?selected=${u === this._user}>${u}</option>`)}
                </select>
                <input id="user" placeholder="or any user id" @keydown=${e => e.key === 'Enter' && this._pick(e.target.value.trim())}>
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
            ${this._sessions.length === 0 ? html`<div class="muted" id="no-sessions">No live session.</div>` : html`
                <table id="sessions">
                    <thead><tr><th>Session</th><th>Goal</th><th>Version</th><th>Plans</th><th>Updated</th></tr></thead>
                    <tbody>${this._sessions.map(s => html`<tr class="session">
                        <td>${s.sessionId}</td><td dir="auto">${s.goal ?? ''}</td><td>${s.version}</td>
                        <td>${s.plans}</td><td>${s.updatedAt}</td></tr>`)}</tbody>
                </table>`}
            <h3>Latest step traces</h3>
            ${this._traces.length === 0 ? html`<div class="muted" id="no-traces">No step trace in the live sessions.</div>` : html`
                <div id="traces">${this._traces.map(t => this._renderTrace(t))}</div>`}
        `;
    }

    _renderTrace(t) {
        return html`<div class="trace">
            <div><b class="step">${t.step}</b> wrote v${t.version} of ${t.sessionId} at ${t.at}
                <span class="muted">(${t.method})</span></div>
            <div class="muted">read v${t.readVersion}${t.retries ? `, ${t.retries} retries` : ''}; profile ${t.profile};
                block ${t.tokens}/${t.budget} tokens; load ${ms(t.loadMillis)}, render ${ms(t.renderMillis)},
                model ${ms(t.modelMillis)}, write ${ms(t.writeMillis)}</div>
            ${this._renderTools(t.tools)}
            <details><summary>Injected block</summary><pre class="block" dir="auto">${t.block ?? ''}</pre></details>
        </div>`;
    }

    /** The tool runs of the step's model call; nothing when the trace did not record them (a streamed step). */
    _renderTools(tools) {
        if (!tools) {
            return '';
        }
        if (tools.length === 0) {
            return html`<div class="muted no-tools">The model call ran no tools.</div>`;
        }
        return html`<table class="tools">
            <thead><tr><th>Tool</th><th>Arguments</th><th>Result or error</th><th>Duration</th></tr></thead>
            <tbody>${tools.map(run => html`<tr>
                <td>${run.tool}</td><td dir="auto">${run.arguments ?? ''}</td>
                ${run.error != null ? html`<td class="error" dir="auto">failed: ${run.error}</td>`
                    : html`<td dir="auto">${run.result ?? ''}</td>`}
                <td>${ms(run.durationMicros / 1000)}</td></tr>`)}</tbody>
        </table>`;
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
            // a later pick may have answered first: show only the user now picked
            if (this._user === user) {
                this._sessions = sessions.result;
                this._traces = traces.result;
            }
        }, e => this._failed(e, user));
    }

    _failed(e, user) {
        if (user && this._user !== user) {
            return;
        }
        this._sessions = [];
        this._traces = [];
        this._error = 'Mnemos could not answer: ' + (e?.error?.message ?? e?.message ?? e);
    }
}
customElements.define('qwc-mnemos-sessions', QwcMnemosSessions);
