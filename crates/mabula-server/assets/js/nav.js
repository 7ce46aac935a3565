// Client-side navigation: pages call `navigate`, the router in app.js listens for `routechange`.

/** Goes to a client route without reloading the page. */
export function navigate(/** @type {string} */ path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event('routechange'));
}
