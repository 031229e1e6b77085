import { createContext, useContext } from "react";

/** Set on the server only; browsers hide nonce attributes from scripts anyway. */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
