/** The demo's conversations, line by line. */

export type ConversationSeed = {
  between: readonly [string, string];
  startsDaysAgo: number;
  /** Hours between one message and the next; a few, spread over the time since the start, otherwise. */
  hoursApart?: number;
  lines: readonly (readonly [0 | 1, string])[];
  /** The last message is still unread by its recipient; otherwise both have read everything. */
  lastUnread?: boolean;
  /** The lines (by index) that were replies to a notification mail, marked "by e-mail" in the thread. */
  byMail?: readonly number[];
};

/** Each line is [sender, text]: 0 is the first agent named in `between`, 1 the second. */
export const CONVERSATIONS: readonly ConversationSeed[] = [
  {
    between: ["Maria Delgado", "Sarah Whitlock"],
    startsDaysAgo: 2.5,
    lines: [
      [1, "Hi Maria, I saw your Tinker relocation request. I'd be glad to work with your clients in Moore or Midwest City."],
      [0, "Thanks Sarah! They're pre-approved around $350k and want to start touring in two weeks. Does a 25% referral fee work for you?"],
      [1, "25% works. I'll send the referral agreement over tonight."],
      [0, "Perfect. I'll introduce you to them by e-mail tomorrow morning."],
      [1, "Agreement is back, signed. Thank you!"],
    ],
    lastUnread: true,
  },
  {
    between: ["Maria Delgado", "James Whitfield"],
    startsDaysAgo: 6,
    lines: [
      [1, "Maria, do you know a Dallas lender you trust for jumbo loans? I have a buyer relocating from Houston."],
      [0, "Yes, I'll send you two names. Is your buyer looking in Preston Hollow or further north?"],
      [1, "North Dallas, around $1.2M. I'll send them your way with a referral agreement."],
      [0, "Sounds great. I'll call them this week."],
    ],
    // James answered the first one from his inbox, replying to its notification mail.
    byMail: [2],
  },
  {
    between: ["Maria Delgado", "Wade Harlan"],
    startsDaysAgo: 9,
    lines: [
      [0, "Hi Wade, a Dallas client wants a weekend hunting property near Amarillo. Is that something you cover?"],
      [1, "It sure is. Most of what I'm seeing runs $2,500 to $3,500 an acre right now. How many acres are they after?"],
      [0, "Around 200 acres, under $700k. I'll send over their details."],
    ],
  },
  {
    between: ["Priya Raman", "Travis Colbert"],
    startsDaysAgo: 4,
    lines: [
      [1, "Priya, I have a Tulsa client moving to Austin for a tech job. Do you work Round Rock and Pflugerville?"],
      [0, "I do! Both are great for commuters. What's their budget?"],
      [1, "About $450k, three bedrooms, good schools."],
      [0, "Very doable in Pflugerville. Send them over and I'll set up a call."],
    ],
    lastUnread: true,
  },
];
