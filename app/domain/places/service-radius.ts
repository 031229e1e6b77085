/** The distances an agent may serve around their places, in miles: no zod here, so forms in the browser can list them. */
export const SERVICE_RADII = [10, 25, 50, 100] as const;
export type ServiceRadius = (typeof SERVICE_RADII)[number];

/** An agent who chose no radius serves this far. */
export const DEFAULT_SERVICE_RADIUS: ServiceRadius = 25;
