// A tiny element builder: h("button", {class: "x", onclick: fn}, "text", child, …).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "value") {
      el.value = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** el.append(...children), but a null, undefined or false child is skipped (Element.append would write it
 * as the text "null") and arrays are flattened. */
export function add(el, ...children) {
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/**
 * Scroll a list to its end (the latest item in sight), its box cut to whole rows: the top row shown is never
 * half hidden at the top edge, under the list's heading. The list's CSS max-height is the cap; rows of
 * different heights (a move on two lines) are counted as they are drawn.
 */
export function showLatest(list) {
  if (!list || !list.isConnected) return;
  list.style.height = "";
  const cap = list.clientHeight;
  if (!cap || list.scrollHeight <= cap + 1) return; // it all fits: nothing scrolls
  const style = getComputedStyle(list);
  const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  let used = padding;
  for (let row = list.lastElementChild; row; row = row.previousElementSibling) {
    const height = row.getBoundingClientRect().height;
    if (used + height > cap) break;
    used += height;
  }
  if (used > padding) {
    const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    list.style.height = `${Math.ceil(style.boxSizing === "border-box" ? used + borders : used - padding)}px`;
  }
  list.scrollTop = list.scrollHeight;
}
