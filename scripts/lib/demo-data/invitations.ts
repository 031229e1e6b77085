/**
 * The demo's invitations to respond, and the Respond by deadlines of the requests they are
 * for. The demo login (Maria Delgado) has a request with open invitations and one Not a fit
 * with its reason, another whose deadline passed with no response (so the next five are
 * offered), and an invitation of her own on her dashboard's "Invited to respond".
 */

/** Hours after a request was posted that its Respond by falls, by request key. */
export const RESPOND_BY_HOURS: Readonly<Record<string, number>> = {
  "lake-highlands-listing": 72,
  "tulsa-first-home": 24,
  "denton-first-home": 48,
};

export type InvitationSeed = {
  request: string;
  agent: string;
  /** Hours after the request was posted. */
  hoursLater: number;
  notAFit?: { hoursLater: number; reason: string };
};

export const INVITATIONS: readonly InvitationSeed[] = [
  { request: "lake-highlands-listing", agent: "Hannah Kowalski", hoursLater: 1 },
  { request: "lake-highlands-listing", agent: "Grace Nguyen", hoursLater: 1 },
  {
    request: "lake-highlands-listing",
    agent: "Kendra Osei",
    hoursLater: 1,
    notAFit: {
      hoursLater: 6,
      reason: "I am booked with two closings in Plano this month; Lake Highlands deserves quicker showings than I can give.",
    },
  },
  { request: "tulsa-first-home", agent: "Alicia Monroe", hoursLater: 0.5 },
  {
    request: "tulsa-first-home",
    agent: "Travis Colbert",
    hoursLater: 0.5,
    notAFit: { hoursLater: 3, reason: "I only take investment clients now." },
  },
  { request: "denton-first-home", agent: "Maria Delgado", hoursLater: 0.2 },
  // Rosa joined through Maria's invitation to this request and answered it.
  { request: "alpine-ranch", agent: "Rosa Espinoza", hoursLater: 66 },
];
