import { describe, expect, it } from "vitest";
import { createPointIndex, milesBetween, type GeoPoint } from "../../app/domain/places/geo";

const tyler = { lat: 32.3513, lon: -95.3011 };
const longview = { lat: 32.5007, lon: -94.7405 };
const dallas = { lat: 32.7767, lon: -96.797 };
const tulsa = { lat: 36.154, lon: -95.9928 };

describe("miles between two points", () => {
  it("measures known distances within a mile", () => {
    expect(milesBetween(tyler, longview)).toBeCloseTo(34.5, 0);
    expect(milesBetween(dallas, tulsa)).toBeGreaterThan(230);
    expect(milesBetween(dallas, tulsa)).toBeLessThan(240);
    expect(milesBetween(tyler, tyler)).toBe(0);
  });
});

describe("the point index", () => {
  it("finds what a scan finds, nearest first, each item once at its nearest point", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const items = Array.from({ length: 2_000 }, (_, id) => ({
      id,
      points: Array.from({ length: 1 + (id % 3) }, (): GeoPoint => ({ lat: 26 + random() * 11, lon: -106.6 + random() * 12.2 })),
    }));
    const index = createPointIndex(items, (item) => item.points);
    for (const [center, miles] of [
      [tyler, 10],
      [dallas, 50],
      [tulsa, 100],
      [{ lat: 36.9, lon: -100.5 }, 250],
    ] as const) {
      const scanned = items
        .map((item) => ({ item, miles: Math.min(...item.points.map((point) => milesBetween(center, point))) }))
        .filter((near) => near.miles <= miles)
        .sort((a, b) => a.miles - b.miles);
      expect(index.within(center, miles)).toEqual(scanned);
    }
  });
});
