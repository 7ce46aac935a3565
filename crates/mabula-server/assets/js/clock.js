// Clocks as people read them: times and time controls in the reader's language. (The server keeps
// the time and flags; the game page counts down between its states, see game-model.js.)

import { t, lang } from './i18n.js';

/** Milliseconds as a clock shows them: `4:05`, `0:09.4`, `1:02:03`; days and hours for correspondence. */
export function formatClock(/** @type {number} */ ms, { days = false } = {}) {
  const left = Math.max(0, ms);
  if (days && left >= 3600000) {
    const d = Math.floor(left / 86400000);
    const hours = Math.floor((left % 86400000) / 3600000);
    const minutes = Math.floor((left % 3600000) / 60000);
    return d ? t('clock.daysHours', { d, h: hours }) : t('clock.hoursMinutes', { h: hours, m: minutes });
  }
  const total = Math.floor(left / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const ss = String(sec).padStart(2, '0');
  if (h) return `${h}:${String(m).padStart(2, '0')}:${ss}`;
  if (left < 10000) return `${m}:${ss}${decimal()}${Math.floor((left % 1000) / 100)}`;
  return `${m}:${ss}`;
}

function decimal() {
  return (1.5).toLocaleString(lang()).charAt(1) || '.';
}

/** A number of seconds as a time control says it: `15 s`, `1.5 min`, `3 min`. */
export function formatSeconds(/** @type {number} */ s) {
  if (s < 60) return t('clock.seconds', { n: s });
  return t('clock.minutes', { n: (s / 60).toLocaleString(lang(), { maximumFractionDigits: 2 }) });
}

/** The time control of a game or a seek (`{initial_s, increment_s}` or `{days}`) in words. */
export function controlLabel(/** @type {import('api-types').TimeControl | null | undefined} */ control) {
  if (!control) return '';
  if ('days' in control) return t('clock.perMove', { n: control.days });
  const initial = control.initial_s % 60 === 0 ? String(control.initial_s / 60) : t('clock.secondsShort', { n: control.initial_s });
  return `${initial}+${control.increment_s}`;
}
