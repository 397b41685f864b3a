import type { Page } from "playwright-core";

/**
 * Elements of the page whose content is cut off or reachable only by a sideways scroll inside the
 * page: overflow hidden/clip/auto/scroll with content wider than the box. Text truncated on
 * purpose (an ellipsis with the full text in a title), visually hidden elements (1 px), code
 * blocks (meant to scroll), text fields and boxes without text are not counted. Each finding is a short description for the report.
 */
export async function clippedElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const describe = (el: Element) => {
      const id = el.getAttribute("data-testid");
      const cls = (el.getAttribute("class") ?? "").split(/\s+/).filter((c) => c && !c.startsWith("m_"));
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ""}${cls[0] ? `.${cls[0]}` : ""} "${text}"`;
    };
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      if (!(el instanceof HTMLElement)) continue;
      const style = getComputedStyle(el);
      if (!["hidden", "clip", "auto", "scroll"].includes(style.overflowX)) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 2 || box.height <= 2 || style.visibility === "hidden") continue;
      if (el.scrollWidth <= el.clientWidth + 1) continue;
      if (el.closest("pre, code, [data-allow-scroll], .uplot, [inert]")) continue;
      // A text field scrolls its own value; a box with no text (a switch's track) cuts nothing to read.
      if (el.matches("input, textarea, select") || !(el.textContent ?? "").trim()) continue;
      if (style.textOverflow === "ellipsis" && (el.title || el.closest("[title]"))) continue;
      out.push(`${describe(el)} ${el.scrollWidth}>${el.clientWidth}`);
    }
    return out;
  });
}
