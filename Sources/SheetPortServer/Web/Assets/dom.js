// Element building for the page. Server data only ever lands through textContent and
// setAttribute, never through HTML parsing, so a cell holding markup stays text.

/**
 * Makes an element: `props` keys are attributes (`class`, `data-*`, `aria-*`, ...), `text`
 * (the text content), or `on<event>` listeners; children are nodes or strings (as text).
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') element.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'value') element.value = String(value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** Empties `element` and puts `children` in it. */
export function replace(element, ...children) {
  element.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}

/** The page's data attribute `name` on body (`page`, `sheetId`, `role`, ...). */
export function pageData(name) {
  return document.body.dataset[name] ?? '';
}
