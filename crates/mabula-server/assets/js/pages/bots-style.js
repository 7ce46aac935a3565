// The styles of the bots page and of the account page's tokens card (issue 38), added to the
// document when one of them is first shown, so that the first visit of other pages does not carry
// them (as tournament-style.js does). They use css/style.css's variables and themes.

const CSS = `
.bots-page { display: grid; gap: 16px; }
.bots-page h1, .bots-page .lead { margin: 0; }
.bots-status:empty { display: none; }
.bot-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
.bot-item { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px 16px; padding: 10px 0; border-bottom: 1px solid var(--line); }
.bot-item:last-child { border-bottom: 0; }
.bot-main { display: grid; gap: 4px; min-width: 0; }
.bot-who { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; font-weight: 700; overflow-wrap: anywhere; }
.bot-level { font-weight: 400; font-size: .9rem; }
.bot-ratings { display: flex; flex-wrap: wrap; gap: 4px 16px; color: var(--muted); font-size: .9rem; }
.bot-ratings strong { color: var(--text); }
.token-form { display: grid; gap: 10px; }
.token-scopes { border: 0; padding: 0; margin: 0; display: grid; gap: 8px; }
.scope-choice { display: flex; align-items: flex-start; gap: 8px; cursor: pointer; }
.scope-choice input { margin-top: 4px; }
.token-secret { margin: 12px 0; padding: 12px; border: 2px solid var(--accent); border-radius: 10px; background: var(--accent-soft); display: grid; gap: 8px; }
.token-secret h3, .token-secret p { margin: 0; }
.token-secret .warning-text { font-weight: 600; }
.copy-row { display: flex; gap: 8px; min-width: 0; }
.copy-row input { flex: 1; min-width: 0; font-family: ui-monospace, monospace; }
.token-row .session-what { display: grid; gap: 2px; min-width: 0; overflow-wrap: anywhere; }
.token-scopes-list { display: flex; flex-wrap: wrap; gap: 6px; font-size: .85rem; }
`;

let added = false;

export function addBotStyles() {
  if (added) return;
  added = true;
  const style = document.createElement('style');
  style.dataset.styles = 'bots';
  style.textContent = CSS;
  document.head.append(style);
}
