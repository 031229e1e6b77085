/**
 * Conversations other members started that a few demo agents answered, at their own pace,
 * so the profiles' track records and the directory's "Replies in about N hours" show real
 * figures. None involves the demo login, whose inbox stays as `conversations.ts` has it.
 */
import type { ConversationSeed } from "./conversations";

/** One question and its answer, `replyHours` later: agent 0 asks, agent 1 answers. */
function answered(
  asker: string,
  answerer: string,
  startsDaysAgo: number,
  replyHours: number,
  question: string,
  answer: string,
): ConversationSeed {
  return {
    between: [asker, answerer],
    startsDaysAgo,
    hoursApart: replyHours,
    lines: [
      [0, question],
      [1, answer],
    ],
  };
}

export const TRACK_RECORD_CONVERSATIONS: readonly ConversationSeed[] = [
  answered(
    "Hannah Kowalski",
    "James Whitfield",
    14,
    1,
    "James, do you cover Katy? I have a buyer moving from Fort Worth.",
    "I do, Katy is half my business. Send them over.",
  ),
  answered(
    "Ethan Brooks",
    "James Whitfield",
    40,
    2,
    "Any chance you take referrals for the Heights?",
    "Yes, happily. What price range are they in?",
  ),
  answered(
    "Grace Nguyen",
    "James Whitfield",
    95,
    3,
    "A McKinney seller is buying a second home in Galveston. Is that your area?",
    "Close enough: I work Galveston with a partner there. Let's talk.",
  ),
  answered(
    "Omar Haddad",
    "James Whitfield",
    180,
    6,
    "James, a residential lead came to me by mistake. Want it?",
    "Thank you, Omar! I'll call them this afternoon.",
  ),
  answered(
    "Rebecca Stein",
    "Priya Raman",
    21,
    2,
    "Priya, a couple wants a new build in Leander. Yours?",
    "Definitely. I'll pull this month's inventory for them.",
  ),
  answered(
    "Naomi Fischer",
    "Priya Raman",
    60,
    4,
    "Do you work Hutto as well as Pflugerville?",
    "I do. Hutto prices are a bit lower right now.",
  ),
  answered(
    "Tyler Boone",
    "Priya Raman",
    130,
    8,
    "A student's parents want a condo near UT. Interested?",
    "Yes, West Campus condos are a specialty of mine.",
  ),
  answered(
    "Emily Chen",
    "Sarah Whitlock",
    18,
    1,
    "Sarah, I have a family moving from Norman to Edmond.",
    "Great, I'll reach out to them today.",
  ),
  answered("Garrett Pierce", "Sarah Whitlock", 75, 1, "Can you take a first-time buyer in Yukon?", "Of course. Are they pre-approved yet?"),
  answered(
    "Nathan Price",
    "Sarah Whitlock",
    150,
    3,
    "A commercial client's assistant needs a rental house. Can you help?",
    "Sure, send me their dates and budget.",
  ),
  answered(
    "Javier Morales",
    "Carlos Benavides",
    30,
    20,
    "Carlos, an investor wants duplexes near the Pearl.",
    "Sorry for the wait: yes, I have two coming on the market.",
  ),
  answered(
    "Ana Villarreal",
    "Carlos Benavides",
    110,
    26,
    "Do you take referrals for Alamo Heights?",
    "Yes. Apologies for the slow reply, I was at a closing.",
  ),
  answered(
    "Dustin Pruitt",
    "Carlos Benavides",
    200,
    30,
    "A Midland buyer is relocating to San Antonio. Can I send them?",
    "Please do, I'll set up a call.",
  ),
];
