/** Points on the map and the distances between them, in statute miles. */
export type GeoPoint = { readonly lat: number; readonly lon: number };

const EARTH_RADIUS_MILES = 3958.8;
const MILES_PER_DEGREE_OF_LATITUDE = 69.05;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance (haversine): exact enough for "12 mi" over Texas and Oklahoma. */
export function milesBetween(a: GeoPoint, b: GeoPoint): number {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Nearby<T> = { readonly item: T; readonly miles: number };

/** Items by where they are, found by distance without measuring every one of them. */
export type PointIndex<T> = {
  /** The items within `miles` of `center`, nearest first. */
  within(center: GeoPoint, miles: number): Nearby<T>[];
};

/** The grid's cells are this many degrees a side: about 35 by 30 miles in Texas. */
const CELL_DEGREES = 0.5;
const cellOf = (degrees: number) => Math.floor(degrees / CELL_DEGREES);
const cellKey = (latCell: number, lonCell: number) => `${latCell}:${lonCell}`;

/**
 * A grid index: each item sits in the cell of its point, and a search reads only the cells
 * a box around the circle touches, then measures the items found there. An item with
 * several points (an agent's places) is listed once per point; `within` keeps its nearest.
 */
export function createPointIndex<T>(items: readonly T[], pointsOf: (item: T) => readonly GeoPoint[]): PointIndex<T> {
  const cells = new Map<string, { item: T; point: GeoPoint }[]>();
  for (const item of items) {
    for (const point of pointsOf(item)) {
      const key = cellKey(cellOf(point.lat), cellOf(point.lon));
      const cell = cells.get(key);
      if (cell) cell.push({ item, point });
      else cells.set(key, [{ item, point }]);
    }
  }
  return {
    within(center, miles) {
      const latSpan = miles / MILES_PER_DEGREE_OF_LATITUDE;
      const lonSpan = latSpan / Math.max(0.01, Math.cos(radians(Math.min(89, Math.abs(center.lat) + latSpan))));
      const nearest = new Map<T, number>();
      for (let latCell = cellOf(center.lat - latSpan); latCell <= cellOf(center.lat + latSpan); latCell++) {
        for (let lonCell = cellOf(center.lon - lonSpan); lonCell <= cellOf(center.lon + lonSpan); lonCell++) {
          for (const { item, point } of cells.get(cellKey(latCell, lonCell)) ?? []) {
            const distance = milesBetween(center, point);
            if (distance > miles) continue;
            const known = nearest.get(item);
            if (known === undefined || distance < known) nearest.set(item, distance);
          }
        }
      }
      return [...nearest].map(([item, distance]) => ({ item, miles: distance })).sort((a, b) => a.miles - b.miles);
    },
  };
}
