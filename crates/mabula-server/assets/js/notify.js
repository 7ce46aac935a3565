// The browser's Notification API: asked for only when the person presses a button, and used only
// while the site is open and not in front (an open page shows a toast instead).

import { navigate } from './nav.js';

/** 'granted', 'denied', 'default', or 'unsupported' where the browser has no notifications. */
export function permission() {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.permission;
}

/** Asks for permission (call it from a click); answers the new permission. */
export async function askPermission() {
  if (!('Notification' in window)) return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Shows a system notification when allowed and the page is not what the person looks at;
 * clicking it brings the page forward at `path`. `tag` keeps one notification per subject.
 */
export function notify(/** @type {string} */ title, /** @type {{ body?: string, path?: string | null, tag?: string }} */ { body = '', path = null, tag = undefined } = {}) {
  if (permission() !== 'granted') return null;
  if (document.visibilityState === 'visible' && document.hasFocus()) return null;
  try {
    const n = new Notification(title, { body, tag, icon: '/favicon.svg' });
    n.onclick = () => {
      window.focus();
      if (path && location.pathname !== path) navigate(path);
      n.close();
    };
    return n;
  } catch {
    // Some browsers allow notifications only from a service worker.
    return null;
  }
}
