// Clocks as people read them. The server keeps the time and flags a player whose time runs out;
// between two states the page counts the running side down by itself from the server's values
// (the times it sent, measured from the moment the state arrived), so the clock moves smoothly
// without trusting this device's wall clock.

import { t, lang } from './i18n.js';

/** Milliseconds as a clock shows them: `4:05`, `0:09.4`, `1:02:03`; days and hours for correspondence. */
export function formatClock(ms, { days = false } = {}) {
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
export function formatSeconds(s) {
  if (s < 60) return t('clock.seconds', { n: s });
  return t('clock.minutes', { n: (s / 60).toLocaleString(lang(), { maximumFractionDigits: 2 }) });
}

/** The time control of a game or a seek (`{initial_s, increment_s}` or `{days}`) in words. */
export function controlLabel(control) {
  if (!control) return '';
  if (control.days !== undefined) return t('clock.perMove', { n: control.days });
  const initial = control.initial_s % 60 === 0 ? String(control.initial_s / 60) : t('clock.secondsShort', { n: control.initial_s });
  return `${initial}+${control.increment_s}`;
}

/** When a clock is shown as low on time: a tenth of the starting time, between 5 and 20 seconds. */
export function lowAt(control) {
  if (!control) return 0;
  if (control.days !== undefined) return control.days * 86400000 * 0.1;
  return Math.min(20000, Math.max(5000, control.initial_s * 100));
}

/**
 * The countdown of one game's clocks between the server's states: `set(clock)` with a state's
 * `clock` (the values it carries are "now" for the page), then `left(side)` answers the time
 * left, counted down on the running side.
 */
export class Countdown {
  constructor() {
    this.clock = null;
    this.at = 0;
  }

  set(clock) {
    this.clock = clock;
    this.at = performance.now();
  }

  elapsed() {
    return performance.now() - this.at;
  }

  /** `side`'s time left now (ms). */
  left(side) {
    const c = this.clock;
    if (!c) return 0;
    const base = side === 'white' ? c.white_ms : c.black_ms;
    return c.running === side ? Math.max(0, base - this.elapsed()) : base;
  }

  /** While the first moves are awaited: the time left before the game is aborted (ms), else null. */
  abortIn() {
    const c = this.clock;
    if (!c || c.running || c.deadline === null || c.deadline === undefined) return null;
    return Math.max(0, c.deadline - c.now - this.elapsed());
  }

  /** Whether something on the clock changes with time. */
  ticking() {
    const c = this.clock;
    return Boolean(c && (c.running || (c.deadline !== null && c.deadline !== undefined)));
  }
}
