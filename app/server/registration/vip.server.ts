import { founderSpotsLeft } from "~/domain/product";
import { membershipTypeFor } from "~/domain/registration";
import type { MembershipType } from "~/domain/workbook/tabs";
import type { Config } from "../config.server";
import type { Services } from "../services.server";

/** The configured VIP code matching the one given (in any case), or undefined. */
export function matchVipCode(config: Pick<Config, "vipCodes">, code: string | null | undefined): string | undefined {
  const wanted = code?.trim().toLowerCase();
  if (!wanted) return undefined;
  return config.vipCodes.find((vipCode) => vipCode.toLowerCase() === wanted);
}

/** Founder spots open now, from the agent rows in the store. */
export function foundersLeftNow({ store }: Pick<Services, "store">): number {
  return founderSpotsLeft(store.agents.all());
}

/** The membership a registration gets now: VIP for a code still configured, founder while spots are left, member after. */
export function membershipForDraft(services: Pick<Services, "config" | "store">, draft: { vipCode?: string }): MembershipType {
  return membershipTypeFor({ vipCode: matchVipCode(services.config, draft.vipCode), foundersLeft: foundersLeftNow(services) });
}
