import type { Page, TestInfo } from "@playwright/test";
import { screenshotForPeople } from "./screenshots";
import { elementsPastTheEdge, sidewaysOverflow } from "./site-pages";
import { expect, expectNoAxeViolations } from "./test";

/** The widths the layout is looked at: a phone's and a desktop's. */
const PHONE_WIDTH = 390;
const DESKTOP_WIDTH = 1280;

type LookOptions = {
  /** Keeps a screenshot named `<shot>-<width>` at each width for people to look at (see screenshotForPeople). */
  shot?: string;
  fullPage?: boolean;
  withoutScriptsToo?: boolean;
  widths?: readonly number[];
};

/**
 * Looks at the page as it is now at a phone's and a desktop's width, resized in place as a
 * turned phone or a resized window would be: at each width it must not scroll sideways and
 * axe must find no WCAG 2.2 AA violation (each kind of page once a run, at phone and at
 * desktop width), and with `shot` a screenshot is kept. The page's markup and what a test
 * does with it are the same at every width, so a test walks its flow once per JavaScript mode
 * and calls this where the layout matters, rather than walking the whole flow once per width
 * (docs/testing.md). The page is left at the size it had.
 */
export async function lookAtEachWidth(page: Page, testInfo: TestInfo, options: LookOptions = {}): Promise<void> {
  const { shot, fullPage = true, withoutScriptsToo = false, widths = [PHONE_WIDTH, DESKTOP_WIDTH] } = options;
  // Each look stands for what was once a test of its own at the other width: it brings its own time.
  testInfo.setTimeout(testInfo.timeout + 10_000);
  const before = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: before?.height ?? 900 });
    expect(await sidewaysOverflow(page), `scrolls sideways at ${width}px: ${(await elementsPastTheEdge(page)).join("\n")}`).toBe(0);
    await expectNoAxeViolations(page);
    if (shot !== undefined) {
      // From the top, so a sticky header sits at the top of a full-page shot.
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshotForPeople(page, testInfo, `${shot}-${width}`, { fullPage, withoutScriptsToo });
    }
  }
  if (before) await page.setViewportSize(before);
}
