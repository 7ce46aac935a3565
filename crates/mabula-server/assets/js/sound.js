// The game's sounds, made with the Web Audio API (small oscillator tones; no sound files): a move,
// the lead taken (the mover's largest group grows past the opponent's), low time (under 10 s, once
// a game) and the end of the game. A switch, remembered in localStorage, mutes them.

const KEY = 'mabula:sound';

/** @type {AudioContext | null} */
let audio = null;

/** Whether sounds are on (they are unless muted). */
export function soundOn() {
  try { return localStorage.getItem(KEY) !== '0'; } catch { return true; }
}

/** Turns the sounds on or off, for this browser. */
export function setSound(/** @type {boolean} */ on) {
  try { localStorage.setItem(KEY, on ? '1' : '0'); } catch { /* private mode: this page only */ }
}

/** @typedef {import('pages-types').Sound} Sound */

/**
 * The notes of each sound: `[frequency (Hz), start (s), length (s)]`.
 * @type {Record<Sound, [number, number, number][]>}
 */
const NOTES = {
  move: [[392, 0, 0.09]],
  lead: [[523, 0, 0.1], [784, 0.1, 0.16]],
  low: [[880, 0, 0.07], [880, 0.14, 0.07], [880, 0.28, 0.07]],
  end: [[659, 0, 0.14], [523, 0.14, 0.14], [392, 0.28, 0.3]],
};

/** Plays sound `kind` (`move`, `lead`, `low`, `end`) unless muted or the browser has no audio. */
export function playSound(/** @type {Sound} */ kind) {
  const notes = NOTES[kind];
  if (!notes || !soundOn()) return;
  try {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t0 = audio.currentTime + 0.01;
    for (const [freq, start, length] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      // A soft attack and decay, so that no tone clicks.
      gain.gain.setValueAtTime(0.0001, t0 + start);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + start);
      osc.stop(t0 + start + length + 0.02);
    }
  } catch { /* no audio here: the game goes on silently */ }
}
