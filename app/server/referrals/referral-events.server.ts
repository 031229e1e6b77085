import type { Referral } from "~/domain/workbook/tabs";
import type { Services } from "../services.server";
import { newId } from "../store/store.server";

/** Adds one event to a referral's timeline: `by` is the agent's or broker's e-mail, blank for the app or staff. */
export async function addEvent(services: Pick<Services, "store">, referral: Referral, step: string, by: string, note: string, now: Date) {
  await services.store.referralEvents.insert({
    id: newId(),
    referralId: referral.id,
    step,
    byEmail: by,
    note,
    createdAt: now.toISOString(),
  });
}
