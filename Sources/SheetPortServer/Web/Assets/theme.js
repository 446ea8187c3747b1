// Light, dark or system: the html element's data-theme drives the CSS custom properties; the
// choice is the person's, stored by PUT /api/me/preferences.
import { api, report } from './api.js';
import { h } from './dom.js';

const themes = ['system', 'light', 'dark'];
const listeners = new Set();

/** The theme chosen (`light`, `dark` or `system`). */
export function chosenTheme() {
  const theme = document.documentElement.dataset.theme;
  return themes.includes(theme) ? theme : 'system';
}

/** The theme in effect: `system` resolved through the browser's colour scheme. */
export function effectiveTheme() {
  const theme = chosenTheme();
  if (theme !== 'system') return theme;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Calls `listener` whenever the theme in effect may have changed. */
export function onThemeChange(listener) {
  listeners.add(listener);
}

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  for (const listener of listeners) listener();
}

window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
  if (chosenTheme() === 'system') applyTheme('system');
});

/** The `#theme` select: applies a choice at once and stores it for the person. */
export function themeSelect() {
  const select = h('select', { id: 'theme', 'aria-label': 'Theme' },
    themes.map((theme) => h('option', { value: theme, text: theme[0].toUpperCase() + theme.slice(1) })));
  select.value = chosenTheme();
  select.addEventListener('change', async () => {
    const theme = select.value;
    applyTheme(theme);
    try {
      await api('PUT', '/api/me/preferences', { theme });
    } catch (error) {
      report(error, 'save the theme');
    }
  });
  return select;
}

// Readability: WCAG's relative luminance and contrast ratio.

function luminance(hex) {
  const value = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!value) return null;
  const channels = [0, 2, 4].map((at) => Number.parseInt(value[1].slice(at, at + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2];
}

/** The contrast ratio of two `#RRGGBB` colours (1 to 21), or null when one is not a colour. */
export function contrast(first, second) {
  const a = luminance(first);
  const b = luminance(second);
  if (a === null || b === null) return null;
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Black or white, whichever reads better on `fill` (Excel's automatic ink on a fill). */
export function automaticInk(fill) {
  const l = luminance(fill);
  return l !== null && l < 0.18 ? '#FFFFFF' : '#000000';
}

/** The theme's own cell background and ink as `#rrggbb`, as the page draws them now. */
export function themeColours() {
  const style = getComputedStyle(document.body);
  return { paper: hexColour(style.backgroundColor), ink: hexColour(style.color) };
}

// `rgb(r, g, b)` as `#rrggbb` (what getComputedStyle answers for an opaque colour).
function hexColour(rgb) {
  const parts = rgb.match(/[\d.]+/g)?.slice(0, 3).map((part) => Math.round(Number(part)).toString(16).padStart(2, '0'));
  return parts?.length === 3 ? `#${parts.join('')}` : '#ffffff';
}
