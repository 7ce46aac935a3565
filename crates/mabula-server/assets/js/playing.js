// The games the logged-in account is playing, the same on every device and instance: read from
// the server (`GET /api/account/playing`) once the session is known, on every page change, when
// the tab comes back into view, and every 30 s while it is in view. The top bar shows how many
// wait for the player's move; the home page lists them. A guest's games are the browser's own
// (api.js `myGames`), not these.

import { api } from './api.js';
import { myName } from './session.js';

const EVERY_MS = 30000;

/** @type {import('api-types').PlayingGame[] | null} */
let games = null;
let reading = false;

/** The account's games as last read (`null`: a guest, or not read yet). */
export function playing() {
  return games;
}

/** Reads the account's games again and tells the page (`playingchange`) when they change. */
export async function refreshPlaying() {
  if (!myName()) {
    set(null);
    return;
  }
  if (reading) return;
  reading = true;
  try {
    set((await api.playing()).games);
  } catch {
    // Offline or throttled: the list stays as it was until the next reading.
  } finally {
    reading = false;
  }
}

function set(/** @type {import('api-types').PlayingGame[] | null} */ next) {
  if (JSON.stringify(next) === JSON.stringify(games)) return;
  games = next;
  window.dispatchEvent(new Event('playingchange'));
}

window.addEventListener('routechange', () => { refreshPlaying(); });
window.addEventListener('popstate', () => { refreshPlaying(); });
window.addEventListener('sessionchange', () => { refreshPlaying(); });
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') refreshPlaying();
});
setInterval(() => {
  if (document.visibilityState === 'visible') refreshPlaying();
}, EVERY_MS);
