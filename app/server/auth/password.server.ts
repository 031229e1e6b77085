import bcrypt from "bcryptjs";
import type { Config } from "../config.server";

type HashCost = Pick<Config, "passwordHashCost">;

export function hashPassword({ passwordHashCost }: HashCost, plain: string): Promise<string> {
  return bcrypt.hash(plain, passwordHashCost);
}

/** False for a blank or unreadable hash (a row staff added by hand), never an exception. */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  if (!isBcryptHash(hash)) return false;
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * Spends the same bcrypt work as a real check, for an e-mail with no account or no
 * hash, so response times do not tell which addresses are registered.
 */
export async function verifyAgainstNothing({ passwordHashCost }: HashCost, plain: string): Promise<false> {
  let dummyHash = dummyHashes.get(passwordHashCost);
  if (!dummyHash) {
    dummyHash = bcrypt.hash("no account has this password", passwordHashCost);
    dummyHashes.set(passwordHashCost, dummyHash);
  }
  await bcrypt.compare(plain, await dummyHash);
  return false;
}

function isBcryptHash(hash: string): boolean {
  return /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash);
}
