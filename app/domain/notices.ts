/**
 * The one-time notices an action leaves for the page it redirects to (the success messages of docs/product.md#forms-and-wording,
 * and the message box's word about removed characters). Only the kind travels, in a signed
 * cookie of the browser that acted (docs/decisions/0064); the text is looked up here.
 */
export const NOTICES = {
  posted: "Referral request posted successfully!",
  responded: "Response sent successfully!",
  updated: "Request updated successfully!",
  deleted: "Request deleted successfully!",
  invited: "Invitations sent. Each agent gets an e-mail and sees your request on their dashboard.",
  colleaguesInvited: "Invitations sent. Each colleague gets one e-mail from the network in your name.",
  referredOutside: "Invitation sent. We will tell you when they join, and invite them to this request once staff approve them.",
  colleagueReminded: "Reminder sent. It is the only one for this invitation.",
  settingsSaved: "Your notification settings are saved.",
  deviceAdded: "Push notifications are on for this device.",
  deviceRemoved: "The device is removed: it gets no more notifications.",
  calendarLinkMade: "Your new calendar link is ready. The old link no longer works.",
  reviewSaved: "Saved.",
  reported: "Thank you. Your report was sent to staff.",
  passwordChanged: "Your password has been changed. Please log in with your new password.",
  profileSaved: "Profile updated and refreshed successfully!",
  /** Said as a warning: the rest of the profile was saved. */
  profileSavedPhotoFailed: "Profile saved, but your new photo could not be uploaded. Please try it again later.",
  /** Said beside the message box after a message sent without the control characters it held (never removed silently). */
  cleaned: "Your message was sent. Some invisible control characters were removed from it.",
} as const;

export type NoticeKind = keyof typeof NOTICES;

export function isNoticeKind(value: unknown): value is NoticeKind {
  return typeof value === "string" && Object.hasOwn(NOTICES, value);
}

/** The notices a page of the request pages shows: each request action's outcome lands on one of them. */
export const REQUEST_PAGE_NOTICES = [
  "posted",
  "responded",
  "updated",
  "deleted",
  "invited",
  "referredOutside",
] as const satisfies readonly NoticeKind[];
