import { readFileSync } from "node:fs";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as dashboardIcons from "../../app/components/dashboard-icons";
import * as icons from "../../app/components/icons";

const sprite = readFileSync(new URL("../../app/components/icon-sprite.svg", import.meta.url), "utf8");
const symbols = new Set([...sprite.matchAll(/<symbol id="([a-z-]+)"/g)].map((match) => match[1]));

const iconComponents = Object.entries({ ...icons, ...dashboardIcons }).filter(
  ([name]) => name.endsWith("Icon") && name !== "SpriteIcon",
) as [string, ComponentType<{ className?: string; title?: string }>][];

describe("icons drawn from one sprite", () => {
  it("draws every icon as a reference to a symbol the sprite holds, with no shapes of its own in the page", () => {
    expect(iconComponents.length).toBeGreaterThan(15);
    for (const [name, Icon] of iconComponents) {
      const html = renderToStaticMarkup(createElement(Icon, { className: "h-4 w-4" }));
      const shape = /<use href="[^"#]+#([a-z-]+)"/.exec(html)?.[1];
      expect([name, shape && symbols.has(shape)]).toEqual([name, true]);
      expect(html).not.toMatch(/<(path|circle|rect)\b/);
      expect(html).toContain('aria-hidden="true"');
    }
  });

  it("keeps a titled icon's accessible name", () => {
    const html = renderToStaticMarkup(createElement(icons.MapPinIcon, { className: "h-4 w-4", title: "Location" }));
    expect(html).toMatch(/^<svg class="h-4 w-4" role="img"><title>Location<\/title><use href="[^"]+#map-pin"><\/use><\/svg>$/);
  });

  it("fills the bookmark and heart only when chosen", () => {
    expect(renderToStaticMarkup(createElement(dashboardIcons.HeartIcon, { filled: true }))).toContain('fill="currentColor"');
    expect(renderToStaticMarkup(createElement(dashboardIcons.HeartIcon, {}))).toContain('fill="none"');
  });
});
