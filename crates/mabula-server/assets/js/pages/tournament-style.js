// The styles of the tournament pages (issue 37), added to the document when one of them is first
// shown: they travel with the pages' modules, so that the first visit of every other page does not
// carry them (css/style.css is loaded everywhere). They use style.css's variables and themes.

const CSS = `
.tournament, .tournaments { display: grid; gap: 14px; }
.tournament h1, .tournaments h1, .tournament p { margin: 0; }
.tour-name { overflow-wrap: anywhere; }
.tour-status { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 14px; }
.tour-phase { font-weight: 700; font-size: 1.1rem; }
.tour-countdown { font-variant-numeric: tabular-nums; font-weight: 700; color: var(--accent-strong); }
.tour-call, .tour-actions, .join-form { display: flex; flex-wrap: wrap; align-items: end; gap: 10px; }
.tour-actions { align-items: center; }
.tour-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; align-items: start; }
.tour-grid h2 { margin: 0 0 8px; }
.table-scroll { overflow-x: auto; }
.tour-table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
.tour-table th, .tour-table td { padding: 6px; border-bottom: 1px solid var(--line); text-align: left; }
.tour-table .num { text-align: right; }
.tour-table tbody th { font-weight: 600; overflow-wrap: break-word; }
.tour-table abbr { text-decoration: none; }
.streak { font-size: .8rem; font-weight: 700; color: var(--accent-strong); background: var(--accent-soft); border-radius: 4px; padding: 0 4px; }
.tour-table .points { font-weight: 700; }
.tour-table tr.mine { background: var(--accent-soft); }
.tour-table tr.withdrawn { color: var(--muted); }
.withdrawn-mark, .paused-mark { font-size: .8rem; font-weight: 400; border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
.podium { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 10px; }
.podium .place { display: grid; justify-items: center; gap: 2px; min-width: 7.5em; padding: 10px 14px; border: 1px solid var(--line); border-radius: var(--radius); background: var(--surface); }
.podium .place-1 { border: 2px solid var(--accent); order: -1; font-size: 1.15rem; }
.podium .medal { display: grid; place-items: center; width: 2em; height: 2em; border-radius: 50%; background: var(--accent-soft); color: var(--accent-strong); font-weight: 700; }
.round summary { cursor: pointer; font-weight: 700; padding: 4px 0; }
.pairings { margin: 0 0 8px; padding-left: 1.6em; display: grid; gap: 6px; }
.pairing { overflow-wrap: anywhere; }
.pairing.mine { font-weight: 600; }
.pair-games { display: inline-flex; flex-wrap: wrap; gap: 6px; margin-left: 8px; }
.game-link { padding: 1px 8px; border: 1px solid var(--line); border-radius: 999px; font-variant-numeric: tabular-nums; text-decoration: none; }
.game-link.live { background: var(--accent-soft); border-color: transparent; }
.tour-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 10px; }
.tour-item { display: grid; gap: 2px; padding-bottom: 8px; border-bottom: 1px solid var(--line); }
.tour-link { font-weight: 700; overflow-wrap: anywhere; }
.tour-meta { font-size: .88rem; }
.tour-when { font-variant-numeric: tabular-nums; }
.tour-item .badge { justify-self: start; }
.tour-item:last-child { border-bottom: 0; padding-bottom: 0; }
.tour-form { display: grid; gap: 12px; }
.tour-form input[type="text"], .tour-form input[type="number"], .tour-form select { width: 100%; box-sizing: border-box; }
.tour-form .check { display: flex; gap: 8px; align-items: center; }
.field-error:empty { display: none; }
@media (max-width: 1000px) { .tour-grid { grid-template-columns: minmax(0, 1fr); } }
@media (max-width: 560px) { .tour-table .opt { display: none; } }
`;

let added = false;

/** Adds the tournament pages' styles to the document, once. */
export function addTournamentStyles() {
  if (added) return;
  added = true;
  const style = document.createElement('style');
  style.dataset.styles = 'tournaments';
  style.textContent = CSS;
  document.head.append(style);
}
