import bcrypt from "bcryptjs";

/** bcrypt work factor: about a third of a second per hash on a current server core. */
const PASSWORD_HASH_COST = 12;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, PASSWORD_HASH_COST);
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

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same bcrypt work as a real check, for an e-mail with no account or no
 * hash, so response times do not tell which addresses are registered.
 */
export async function verifyAgainstNothing(plain: string): Promise<false> {
  dummyHash ??= bcrypt.hash("no account has this password", PASSWORD_HASH_COST);
  await bcrypt.compare(plain, await dummyHash);
  return false;
}

function isBcryptHash(hash: string): boolean {
  return /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(hash);
}
