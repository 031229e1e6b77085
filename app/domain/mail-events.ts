/**
 * Which of the mail provider's events put an address on the suppression list
 * (docs/decisions/0084), pure. SendGrid's Event Webhook posts a JSON array of events, each
 * with `email`, `event` and, by event, `type` (a bounce: `bounce` or `blocked`), `reason`
 * and `sg_event_id`.
 */
import { z } from "zod";

/** An address that does not exist, or a person who called a mail spam, is never invited again. */
export type EventSuppression = { email: string; reason: "bounce" | "complaint"; note: string };

const eventSchema = z.object({
  email: z.email().max(254),
  event: z.string(),
  type: z.string().optional(),
  reason: z.string().optional(),
  sg_event_id: z.string().max(100).optional(),
});

/**
 * `dropped` events name why SendGrid did not even try: these two reasons are an earlier
 * bounce or complaint of the address; the others (unsubscribed, a broken header, spam
 * content) say nothing about the address itself.
 */
const DROPPED_REASONS: Record<string, EventSuppression["reason"]> = {
  "bounced address": "bounce",
  "spam reporting address": "complaint",
};

/** What an event means for the list: undefined for every event that is no hard bounce or complaint. */
function suppressionReason(event: z.infer<typeof eventSchema>): EventSuppression["reason"] | undefined {
  switch (event.event) {
    case "spamreport":
      return "complaint";
    case "bounce":
      // `blocked` is a refusal of the message (content, the sender's reputation), not of the address.
      return event.type === undefined || event.type === "bounce" ? "bounce" : undefined;
    case "dropped":
      return DROPPED_REASONS[event.reason?.trim().toLowerCase() ?? ""];
    default:
      return undefined;
  }
}

function noteOf(event: z.infer<typeof eventSchema>): string {
  const kind = event.event === "dropped" ? `dropped (${event.reason?.trim()})` : event.event;
  return `SendGrid event: ${kind}${event.sg_event_id ? `, ${event.sg_event_id}` : ""}`;
}

/**
 * The addresses a batch of events suppresses, each once (its first event's reason). An event
 * that is not an object with an address is skipped: the rest of the batch still counts.
 */
export function suppressionsInEvents(events: readonly unknown[]): EventSuppression[] {
  const byEmail = new Map<string, EventSuppression>();
  for (const candidate of events) {
    const parsed = eventSchema.safeParse(candidate);
    if (!parsed.success) continue;
    const reason = suppressionReason(parsed.data);
    const email = parsed.data.email.trim().toLowerCase();
    if (reason && !byEmail.has(email)) byEmail.set(email, { email, reason, note: noteOf(parsed.data) });
  }
  return [...byEmail.values()];
}
