// The styles of the puzzle pages (issue 39), added when one is first shown, so that other pages'
// first visits do not carry them. They use style.css's variables and themes.

const CSS = `
.puzzles { display: grid; gap: 14px 22px; align-items: start; grid-template-columns: minmax(0, 1fr) minmax(280px, 380px); }
.puzzles > h1 { grid-column: 1 / -1; margin: 0; font-size: 1.4rem; }
.puzzles > * { grid-column: 2; min-width: 0; }
.puzzles > .board-col { grid-column: 1; grid-row: 2 / span 3; }
.puzzles .card h2 { font-size: 1rem; margin: 0 0 8px; }
.puz-status { margin: 0; font-weight: 600; text-align: center; }
.puz-status[data-phase="solved"] { color: var(--good, #2e7d32); }
.puz-status[data-phase="failed"] { color: var(--bad, #c62828); }
.puz-info { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 10px; }
.puz-info dt { color: var(--muted); }
.puz-info dd { margin: 0; }
.puz-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.puz-choose { display: grid; gap: 8px; }
.puz-choose .field { display: grid; gap: 4px; }
.puz-result { margin-top: 12px; padding: 10px 12px; border-radius: var(--radius); border: 2px solid var(--line); }
.puz-result.good { border-color: var(--good, #2e7d32); }
.puz-result.bad { border-color: var(--bad, #c62828); }
.puz-result p { margin: 0 0 6px; }
.puz-verdict { font-weight: 700; font-size: 1.1rem; }
.puz-change { font-weight: 600; font-variant-numeric: tabular-nums; }
.puz-line { margin: 0 0 8px; padding-left: 1.6em; font-variant-numeric: tabular-nums; }
.puz-line .mine { font-weight: 600; }
.puz-streak { margin: 0; font-weight: 600; }
.puz-history { list-style: none; margin: 0; padding: 0; display: grid; gap: 2px; font-variant-numeric: tabular-nums; }
.puz-history .good { color: var(--good, #2e7d32); }
.puz-history .bad { color: var(--bad, #c62828); }
@media (max-width: 820px) {
  .puzzles { grid-template-columns: minmax(0, 1fr); }
  .puzzles > *, .puzzles > .board-col { grid-column: 1; grid-row: auto; }
}
@media (orientation: landscape) and (max-height: 520px) {
  .puzzles { grid-template-columns: max(200px, calc(100vh - 130px)) minmax(0, 1fr); gap: 10px 14px; }
  .puzzles > h1 { font-size: 1.1rem; }
  .puzzles > * { grid-column: 2; }
  .puzzles > .board-col { grid-column: 1; grid-row: 2 / span 3; }
  .puzzles .board-wrap { width: 100%; min-width: 0; }
}
`;

let added = false;

/** Adds the puzzle pages' styles to the document, once. */
export function addPuzzleStyles() {
  if (added) return;
  added = true;
  const style = document.createElement('style');
  style.dataset.styles = 'puzzles';
  style.textContent = CSS;
  document.head.append(style);
}
