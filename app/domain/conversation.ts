export const CONVERSATION_ID_SEPARATOR = "--";

/**
 * The id of the conversation between two agents: their store ids sorted and joined
 * with "--". Either agent computes the same id, so both find one conversation, and
 * a Messages row says by itself which two agents it belongs to.
 */
export function conversationIdFor(agentIdA: string, agentIdB: string): string {
  const a = agentIdA.trim();
  const b = agentIdB.trim();
  if (a === "" || b === "") throw new RangeError("A conversation needs the ids of both agents");
  return [a, b].sort().join(CONVERSATION_ID_SEPARATOR);
}
