/**
 * Fills an empty store with the demo network and prints a demo login.
 *
 *   npm run seed:demo                      # the store the app uses (DATA_DIR, or GOOGLE_SHEETS_ID)
 *   DEMO_PASSWORD=... npm run seed:demo    # choose the demo password instead of a random one
 *
 * Re-running on the demo store changes nothing; a store holding anything else is refused.
 */
import { hashPassword } from "~/server/auth/password.server";
import { StoreError } from "~/server/store/store.server";
import { OperatorError, openConfiguredStore, runCommand } from "./lib/store-cli";
import { randomDemoPassword, seedDemo, type DemoCounts } from "./lib/seed-demo";

const MIN_PASSWORD_LENGTH = 8;

function chosenPassword(): string | undefined {
  const chosen = process.env.DEMO_PASSWORD;
  if (chosen === undefined || chosen === "") return undefined;
  if (chosen.length < MIN_PASSWORD_LENGTH)
    throw new OperatorError(`DEMO_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  return chosen;
}

function describeCounts(counts: DemoCounts): string {
  return `${counts.agents} agents, ${counts.requests} requests, ${counts.responses} responses, ${counts.messages} messages, ${counts.conversationMembers} read positions, ${counts.referrals} referrals, ${counts.referralEvents} referral events, ${counts.reviews} reviews, ${counts.invitations} invitations, ${counts.brokerSignoffs} broker sign-offs, ${counts.brokers} confirmed brokers, ${counts.pushSubscriptions} devices with push, ${counts.outreach} colleagues invited to join, ${counts.suppressions} addresses never to invite`;
}

async function main(): Promise<void> {
  const password = chosenPassword();
  const { config, store, description, beforeWrite } = await openConfiguredStore();
  try {
    console.log(`Seeding ${description} with the demo network...`);
    const outcome = await seedDemo(store, {
      now: new Date(),
      newPassword: () => password ?? randomDemoPassword(),
      hashPassword: (plain) => hashPassword(config, plain),
      beforeWrite,
      progress: (message) => console.log(message),
    }).catch((error: unknown) => {
      if (!(error instanceof StoreError)) throw error;
      throw new OperatorError(`${error.message}\nThe demo is only partly written: run npm run seed:demo again to finish it.`);
    });
    switch (outcome.status) {
      case "refused":
        throw new OperatorError(outcome.reason);
      case "unchanged":
        console.log("The store already holds the demo network: nothing changed.");
        console.log(`Demo login: ${outcome.loginEmail} with the password printed when the demo was seeded.`);
        return;
      case "completed":
        console.log(`Completed an earlier, interrupted seed: added ${describeCounts(outcome.added)}.`);
        console.log(
          `Demo login: ${outcome.loginEmail} with ${outcome.password ? `the password ${outcome.password}` : "the password printed when the demo was first seeded"}`,
        );
        return;
      case "seeded":
        console.log(`Added ${describeCounts(outcome.added)}.`);
        console.log(`Demo login: ${outcome.loginEmail}  password: ${outcome.password}`);
        console.log("Every demo agent has this password. It is stored only as a bcrypt hash: note it now.");
        return;
    }
  } finally {
    await store.stop();
  }
}

runCommand(main);
