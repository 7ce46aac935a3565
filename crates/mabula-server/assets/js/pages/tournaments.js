// The tournaments (`/tournaments`, issue 37): upcoming ones with their countdowns, running ones,
// finished ones with their winners, and the form that creates one (its checks are
// tournament-model.js's `createBody`; a refusal of the server is shown beside its field).

import { h, clear, translateDom } from '../dom.js';
import { t } from '../i18n.js';
import { myName } from '../session.js';
import { navigate } from '../nav.js';
import { ApiError } from '../api.js';
import { errorText } from './errors.js';
import { createBody, errorField, countdownText } from './tournament-model.js';
import { tourApi, settingsLine, refusalText } from './tournament.js';
import { addTournamentStyles } from './tournament-style.js';

/** @typedef {import('api-types').TournamentSummary} Summary */

/** How often the list is read again. */
const EVERY_MS = 30000;
/** The clocks offered, as [initial_s, increment_s]. */
const CLOCKS = [[60, 1], [180, 0], [180, 2], [300, 3], [600, 5], [900, 10]];

export function mount(/** @type {HTMLElement} */ main) {
  addTournamentStyles();
  let stopped = false;
  /** @type {import('api-types').TournamentList | null} */
  let list = null;
  /** @type {any} */
  let failure = null;

  const setTitle = () => { document.title = `${t('tour.listTitle')} · Mabula`; };
  setTitle();

  const lists = {
    upcoming: h('ul', { class: 'tour-list', id: 'tour-upcoming' }),
    running: h('ul', { class: 'tour-list', id: 'tour-running' }),
    finished: h('ul', { class: 'tour-list', id: 'tour-finished' }),
  };
  const card = (/** @type {keyof typeof lists} */ key) => h('section', { class: 'card', 'aria-labelledby': `tour-${key}-title` },
    h('h2', { id: `tour-${key}-title`, i18n: `tour.list.${key}` }), lists[key]);
  const failureNote = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const form = buildForm();
  const formCard = h('section', { class: 'card tour-form-card', 'aria-labelledby': 'tour-new-title' },
    h('h2', { id: 'tour-new-title', i18n: 'tour.new' }), form.el);

  main.append(h('section', { class: 'tournaments' },
    h('h1', { i18n: 'tour.listTitle' }),
    h('p', { class: 'muted lead', i18n: 'tour.intro' }),
    failureNote,
    h('div', { class: 'lobby-grid' },
      h('div', { class: 'lobby-main' }, card('running'), card('upcoming'), card('finished')),
      h('div', { class: 'lobby-side' }, formCard))));

  // ---- The list ------------------------------------------------------------------------------

  async function load() {
    try {
      list = await tourApi.list();
      failure = null;
    } catch (err) {
      failure = err;
    }
    if (!stopped) render();
  }

  function item(/** @type {Summary} */ s, /** @type {string} */ kind) {
    let when;
    if (kind === 'upcoming') when = h('span', { class: 'tour-when', dataset: { startsAt: String(s.starts_at) } }, startsText(s.starts_at));
    else if (kind === 'running') when = h('span', { class: 'badge live' }, t('tour.running'));
    else when = h('span', { class: 'tour-when' }, s.winner ? t('tour.wonBy', { name: s.winner }) : t('tour.finished'));
    return h('li', { class: 'tour-item', dataset: { id: s.id } },
      h('a', { href: `/tournament/${s.id}`, class: 'tour-link' }, s.name),
      h('span', { class: 'muted tour-meta' }, `${settingsLine(s.settings)} · ${t('tour.playersN', { n: s.players })}`),
      when);
  }

  function startsText(/** @type {number} */ at) {
    const ms = at - Date.now();
    return ms > 0 ? t('tour.startsIn', { time: countdownText(ms) }) : t('tour.startingNow');
  }

  function render() {
    failureNote.hidden = !failure;
    failureNote.textContent = failure ? errorText(failure) : '';
    for (const key of /** @type {(keyof typeof lists)[]} */ (['upcoming', 'running', 'finished'])) {
      clear(lists[key]);
      const items = list ? list[key] : null;
      if (!items) lists[key].append(h('li', { class: 'empty-note', i18n: 'tour.loading' }));
      else if (!items.length) lists[key].append(h('li', { class: 'empty-note', i18n: `tour.list.none.${key}` }));
      else for (const s of items) lists[key].append(item(s, key));
    }
  }

  /** The countdowns of the upcoming tournaments, each second. */
  function tick() {
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (lists.upcoming.querySelectorAll('[data-starts-at]'))) {
      el.textContent = startsText(Number(el.dataset.startsAt));
    }
  }

  // ---- The form ------------------------------------------------------------------------------

  function buildForm() {
    const errors = /** @type {Record<string, HTMLElement>} */ ({});
    const err = (/** @type {string} */ field) => {
      errors[field] = h('p', { class: 'error-text field-error', id: `tour-${field}-error`, role: 'alert' });
      return errors[field];
    };
    const radio = (/** @type {string} */ name, /** @type {string} */ value, /** @type {string} */ key, checked = false) => h('label', {},
      h('input', { type: 'radio', name, value, checked }), h('span', { i18n: key }));
    const input = (/** @type {string} */ field, /** @type {Record<string, any>} */ attrs) =>
      h('input', { id: `tour-${field}`, name: field, 'aria-describedby': `tour-${field}-error`, ...attrs });
    const row = (/** @type {string} */ field, /** @type {string} */ label, /** @type {HTMLElement} */ control, hint = '') =>
      h('div', { class: 'field-row', dataset: { field } },
        h('label', { for: `tour-${field}`, class: 'field-label', i18n: label }), control,
        hint ? h('p', { class: 'hint', i18n: hint }) : null, err(field));

    const name = input('name', { type: 'text', maxlength: 40, autocomplete: 'off', required: true });
    const clock = h('select', { id: 'tour-clock', name: 'clock', 'aria-describedby': 'tour-clock-error' },
      ...CLOCKS.map(([i, inc]) => h('option', { value: `${i}+${inc}`, selected: i === 180 && inc === 2 }, `${i / 60}+${inc}`)));
    const rounds = input('rounds', { type: 'number', min: 1, max: 15, value: '3', inputmode: 'numeric' });
    const minutes = input('minutes', { type: 'number', min: 10, max: 720, step: 5, value: '30', inputmode: 'numeric' });
    const duplicate = h('input', { type: 'checkbox', name: 'duplicate', checked: true });
    const sequential = h('input', { type: 'checkbox', name: 'sequential' });
    const rated = h('input', { type: 'checkbox', name: 'rated', checked: true });
    const startsIn = h('select', { id: 'tour-start', name: 'startsIn', 'aria-describedby': 'tour-start-error' },
      ...[2, 5, 10, 15, 30, 60, 120, 1440].map((n) => h('option', { value: String(n), selected: n === 10,
        i18n: n < 60 ? 'tour.inMinutes' : 'tour.inHours', i18nArgs: { n: n < 60 ? n : n / 60 } })));
    const minRating = input('minRating', { type: 'number', min: 0, max: 4000, step: 50, inputmode: 'numeric', 'i18n-placeholder': 'lobby.any' });
    const password = input('password', { type: 'text', maxlength: 100, autocomplete: 'off' });
    const formError = h('p', { class: 'error-text', role: 'alert' });
    const submit = h('button', { type: 'submit', class: 'btn primary', i18n: 'tour.create' });
    const roundsRow = row('rounds', 'tour.roundsLabel', rounds);
    const minutesRow = row('minutes', 'tour.minutesLabel', minutes);
    const sequentialLabel = h('label', { class: 'check' }, sequential, h('span', { i18n: 'tour.sequential' }));

    const el = h('form', { class: 'tour-form', novalidate: true },
      row('name', 'tour.name', name),
      h('fieldset', { class: 'field-row', dataset: { field: 'format' } }, h('legend', { i18n: 'tour.formatLabel' }),
        h('div', { class: 'seg' }, radio('format', 'swiss', 'tour.format.swiss', true), radio('format', 'arena', 'tour.format.arena')), err('format')),
      h('fieldset', { class: 'field-row', dataset: { field: 'scoring' } }, h('legend', { i18n: 'home.scoring' }),
        h('div', { class: 'seg' }, radio('scoring', 'largest', 'scoring.largest', true), radio('scoring', 'product', 'scoring.product')), err('scoring')),
      row('clock', 'tour.clock', clock),
      roundsRow, minutesRow,
      h('div', { class: 'field-row checks' },
        h('label', { class: 'check' }, duplicate, h('span', { i18n: 'tour.duplicateLabel' })),
        h('p', { class: 'hint', i18n: 'tour.duplicateHint' }),
        sequentialLabel,
        h('label', { class: 'check' }, rated, h('span', { i18n: 'lobby.rated' }))),
      row('start', 'tour.startLabel', startsIn),
      row('minRating', 'tour.minRating', minRating),
      row('password', 'tour.passwordOptional', password, 'tour.passwordHint'),
      h('div', { class: 'start-row' }, submit, formError));

    const format = () => String(new FormData(el).get('format') || 'swiss');
    function refresh() {
      const arena = format() === 'arena';
      roundsRow.hidden = arena;
      minutesRow.hidden = !arena;
      sequentialLabel.hidden = arena || !duplicate.checked;
    }
    el.addEventListener('change', (e) => {
      // An arena is single games by default, a Swiss tournament duplicate matches.
      if (/** @type {HTMLInputElement} */ (e.target).name === 'format') duplicate.checked = format() === 'swiss';
      refresh();
    });
    refresh();

    function clearErrors() {
      for (const e of Object.values(errors)) e.textContent = '';
      formError.textContent = '';
      for (const c of el.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
    }

    function refuse(/** @type {string | null} */ field, /** @type {string} */ text) {
      const box = field && errors[field];
      if (box) {
        box.textContent = text;
        const control = /** @type {HTMLElement | null} */ (el.querySelector(`#tour-${field}`) || el.querySelector(`[data-field="${field}"] input`));
        control?.setAttribute('aria-invalid', 'true');
        control?.focus();
      } else formError.textContent = text;
    }

    el.addEventListener('submit', async (e) => {
      e.preventDefault();
      clearErrors();
      if (!myName()) {
        navigate('/login?next=/tournaments');
        return;
      }
      const data = new FormData(el);
      const [initial, increment] = String(data.get('clock') || '180+2').split('+').map(Number);
      const values = {
        name: name.value, format: format(), scoring: String(data.get('scoring') || 'largest'),
        initial, increment, rounds: rounds.value, minutes: minutes.value,
        duplicate: duplicate.checked, sequential: sequential.checked, rated: rated.checked,
        when: 'in', startsIn: startsIn.value, minRating: minRating.value, password: password.value,
      };
      const { body, error, field } = createBody(values, Date.now());
      if (!body) {
        refuse(field || null, t(/** @type {string} */ (error)));
        return;
      }
      submit.disabled = true;
      try {
        const created = await tourApi.create(body);
        if (!stopped) navigate(`/tournament/${created.id}`);
      } catch (err) {
        // The server's message is precise (and English); a known code has its translation.
        const own = err instanceof ApiError && ['invalid_tournament', 'invalid_settings', 'bad_request'].includes(err.code) && err.message;
        const text = own ? err.message : refusalText(err);
        refuse(err instanceof ApiError ? errorField(err) : null, text);
      } finally {
        submit.disabled = false;
      }
    });

    return { el, refresh };
  }

  render();
  load();
  const reader = setInterval(() => { if (!document.hidden) load(); }, EVERY_MS);
  const ticker = setInterval(tick, 1000);

  return {
    unmount() {
      stopped = true;
      clearInterval(reader);
      clearInterval(ticker);
    },
    onLang() {
      setTitle();
      translateDom(/** @type {any} */ (main));
      render();
    },
    onSession() {
      render();
    },
  };
}
