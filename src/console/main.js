// Entry: hash routes, the navigation, and the session. On load the console tries one silent refresh (the HttpOnly
// cookie); signed out, only the public pages are reachable.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { logout, onSession, refresh, signedIn } from 'app/api.js';
import { Agents } from 'app/agents.js';
import { Forgot, Login, ResetWithCode, Signup } from 'app/auth.js';
import { Dashboard } from 'app/dashboard.js';
import { Flows } from 'app/flows.js';
import { Impact } from 'app/impact.js';
import { Keys } from 'app/keys.js';
import { McpServers } from 'app/mcp.js';
import { Rules } from 'app/rules.js';
import { Security } from 'app/security.js';
import { html } from 'app/ui.js';

const PUBLIC = { '#/login': Login, '#/signup': Signup, '#/forgot': Forgot, '#/forgot/code': ResetWithCode };
const PRIVATE = { '#/dashboard': Dashboard, '#/keys': Keys, '#/impact': Impact, '#/agents': Agents, '#/mcp': McpServers, '#/flows': Flows, '#/rules': Rules, '#/security': Security };
const NAV = [
  ['#/dashboard', 'Dashboard'],
  ['#/keys', 'API keys'],
  ['#/impact', 'Impact'],
  ['#/agents', 'Agents'],
  ['#/mcp', 'MCP servers'],
  ['#/flows', 'Agent flows'],
  ['#/rules', 'Learned rules'],
  ['#/security', 'Security'],
];

const routeOf = () => {
  const [path, query] = location.hash.split('?');
  return { path: path || '#/dashboard', query: query ?? '' };
};

function App() {
  const [route, setRoute] = useState(routeOf);
  const [session, setSession] = useState(signedIn() ? 'in' : 'checking');
  const [reason, setReason] = useState('');

  useEffect(() => {
    const onHash = () => setRoute(routeOf());
    addEventListener('hashchange', onHash);
    const off = onSession((isIn, why) => {
      setSession(isIn ? 'in' : 'out');
      setReason(isIn ? '' : why ?? '');
      if (!isIn && !(routeOf().path in PUBLIC)) location.hash = '#/login';
    });
    if (!signedIn()) refresh().then((ok) => !ok && setSession('out'));
    return () => {
      removeEventListener('hashchange', onHash);
      off();
    };
  }, []);

  if (session === 'checking') return html`<main id="main"><p role="status">Loading…</p></main>`;
  const isPublic = route.path in PUBLIC;
  if (session === 'in' && isPublic) location.hash = '#/dashboard';
  if (session === 'out' && !isPublic) {
    location.hash = '#/login';
    return null;
  }
  const View = session === 'in' ? PRIVATE[route.path] ?? Dashboard : PUBLIC[route.path] ?? Login;
  const loginReason = reason || (route.query === 'reset' ? 'reset' : '');
  return html`
    <a class="skip" href="#main" onClick=${(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to content</a>
    <header class="top">
      <a class="brand" href="#/dashboard">Bastion <span>console</span></a>
      ${session === 'in'
        ? html`<nav aria-label="Console">
            <ul>${NAV.map(([href, label]) => html`<li><a href=${href} aria-current=${route.path === href ? 'page' : undefined}>${label}</a></li>`)}</ul>
            <button type="button" class="secondary" onClick=${() => logout(false)}>Log out</button>
          </nav>`
        : null}
    </header>
    <main id="main" tabindex="-1"><${View} reason=${loginReason} /></main>
    <footer class="foot"><p>Metadata and aggregates only: Bastion never shows request content. <a href="/docs">Docs</a></p></footer>`;
}

// The page's placeholder ("Loading…") goes first: preact renders into an empty container.
const root = document.getElementById('app');
root.textContent = '';
render(html`<${App} />`, root);
