// The loop of every page built as model/update/render (the game, lobby and analysis pages): a
// message goes to the model's `update`, a changed model is drawn with `render`, then each of the
// effects `update` asked for is `run`. The model is kept here, read as `page.model`.

/**
 * @template M, G
 * @typedef {{ model: M, stopped: boolean, dispatch: (msg: G) => void }} Program
 */

/**
 * A page's loop, starting from `model`. Set `stopped` when the page is left: later messages
 * (a late answer, a socket's last event) are then dropped.
 * @template M, G, E
 * @param {M} model
 * @param {(model: M, msg: G) => { model: M, effects: E[] }} update
 * @param {(model: M) => void} render
 * @param {(effect: E) => void} run
 * @returns {Program<M, G>}
 */
export function program(model, update, render, run) {
  /** @type {Program<M, G>} */
  const page = {
    model,
    stopped: false,
    dispatch(msg) {
      if (page.stopped) return;
      const { model: next, effects } = update(page.model, msg);
      const changed = next !== page.model;
      page.model = next;
      if (changed) render(next);
      for (const effect of effects) run(effect);
    },
  };
  return page;
}
