/**
 * The bot trap of the anonymous forms, contact and registration (docs/decisions/0058):
 * a honeypot field people never see, and the signed time the page rendered the form.
 * The honeypot's name is one a form-filling script is glad to fill, and no form here has.
 */
export const BOT_TRAP_FIELDS = { honeypot: "website", startedAt: "formStartedAt" } as const;

/** What a refused submission is told: the same for either trap, so a script learns nothing about which one caught it. */
export const BOT_REFUSAL_MESSAGE = "We could not accept this form. Please wait a moment, check your details and send it again.";
