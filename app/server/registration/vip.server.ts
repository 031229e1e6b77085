import type { Config } from "../config.server";

/** The configured VIP code matching the one given (in any case), or undefined. */
export function matchVipCode(config: Pick<Config, "vipCodes">, code: string | null | undefined): string | undefined {
  const wanted = code?.trim().toLowerCase();
  if (!wanted) return undefined;
  return config.vipCodes.find((vipCode) => vipCode.toLowerCase() === wanted);
}
