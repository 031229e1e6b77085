import { expect, type Locator, type Page } from "@playwright/test";

/**
 * True when the focused element shows a focus indicator: an outline, or a ring (a box
 * shadow with no offset and no blur that spreads past the edge). A soft drop shadow,
 * which inputs and cards wear whether focused or not, does not count.
 */
export function focusIsVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return false;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const layers = style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\))/);
    const ring = layers.some((layer) => {
      const color = /rgba?\(([^)]*)\)/
        .exec(layer)?.[1]
        ?.split(",")
        .map((part) => parseFloat(part));
      const lengths =
        layer
          .replace(/rgba?\([^)]*\)/, "")
          .match(/-?[\d.]+px/g)
          ?.map((length) => parseFloat(length)) ?? [];
      const [x = 0, y = 0, blur = 0, spread = 0] = lengths;
      const opaque = color === undefined || color.length < 4 || (color[3] ?? 1) > 0;
      return x === 0 && y === 0 && blur === 0 && spread > 0 && opaque;
    });
    return outline || ring;
  });
}

/** What has focus, in a few words, for a failing check's message. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "nothing";
    const name = element.getAttribute("aria-label") ?? element.getAttribute("name") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return `${element.tagName.toLowerCase()} "${name}"`;
  });
}

/** Fails unless the focused element shows a focus indicator. */
async function expectFocusVisible(page: Page, where = ""): Promise<void> {
  const focused = await describeFocus(page);
  expect(await focusIsVisible(page), `focus visible on ${focused}${where ? ` ${where}` : ""}`).toBe(true);
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until the target has focus, checking that
 * every stop on the way shows it.
 */
export async function tabTo(page: Page, target: Locator, { maxStops = 60, backwards = false } = {}): Promise<void> {
  await target.waitFor({ state: "attached", timeout: 10_000 });
  for (let stop = 1; stop <= maxStops; stop += 1) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    await expectFocusVisible(page, `(stop ${stop})`);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(
    `${await target.evaluate((element) => element.outerHTML.slice(0, 120))} was not reached by ${backwards ? "Shift+Tab" : "Tab"}`,
  );
}
