/**
 * Agent ids (docs/product.md#agent-ids): the `/agent/{agentId}` address of a profile is the agent's
 * e-mail with the at-sign and dots replaced by underscores, or their name with spaces
 * replaced by underscores when there is no e-mail. Links from the old site used a
 * dashed form (`jane-doe-at-example-com`); it still leads to the profile, by a
 * redirect to the canonical id.
 */

export type AgentIdentity = { readonly email: string; readonly fullName: string };

/** `Jane.Doe@Example.com` → `jane_doe_example_com` */
export function agentIdFromEmail(email: string): string {
  return email.trim().toLowerCase().replace(/[@.]/g, "_");
}

/** `Jane  Doe` → `Jane_Doe` (a run of spaces is one underscore). */
export function agentIdFromName(fullName: string): string {
  return fullName.trim().replace(/\s+/g, "_");
}

/** The id in the agent's profile address. */
export function agentIdOf(agent: AgentIdentity): string {
  return agent.email.trim() ? agentIdFromEmail(agent.email) : agentIdFromName(agent.fullName);
}

/** The old site's form: `jane.doe@example.com` → `jane-doe-at-example-com`. */
export function dashedAgentIdFromEmail(email: string): string {
  const [local = "", ...domain] = email.trim().toLowerCase().split("@");
  return `${local}-at-${domain.join("@")}`.replace(/[.@]/g, "-");
}

/**
 * The canonical id a dashed id stands for, when the e-mail had no dash of its own:
 * `jane-doe-at-example-com` → `jane_doe_example_com`. Null for ids without "-at-".
 */
export function canonicalIdFromDashed(id: string): string | null {
  const lower = id.trim().toLowerCase();
  if (!lower.includes("-at-")) return null;
  return lower.replace("-at-", "_").replace(/-/g, "_");
}

/** Ids are compared ignoring case and surrounding spaces. */
function lookupKey(id: string): string {
  return id.trim().toLowerCase();
}

export type AgentIdMatch<A> = {
  agent: A;
  /** The id of the agent's profile address. */
  canonicalId: string;
  /** False when the requested id was another form (dashed, name, different case): redirect to the canonical one. */
  isCanonical: boolean;
};

/**
 * Finds agents by any id form a profile address may take: the canonical id, the dashed form of
 * their e-mail, their name-based id, or an extra key the caller adds (such as the
 * store's record id). An alias two agents share leads to neither, so a link never
 * opens the wrong person's profile.
 */
export class AgentIdLookup<A extends AgentIdentity> {
  private readonly canonical = new Map<string, A>();
  private readonly aliases = new Map<string, A | null>();

  constructor(
    agents: Iterable<A>,
    private readonly extraKeys: (agent: A) => readonly string[] = () => [],
  ) {
    const all = [...agents];
    for (const agent of all) this.canonical.set(lookupKey(agentIdOf(agent)), agent);
    for (const agent of all) {
      for (const key of this.aliasKeys(agent)) this.addAlias(key, agent);
    }
  }

  private aliasKeys(agent: A): Set<string> {
    return new Set([dashedAgentIdFromEmail(agent.email), agentIdFromName(agent.fullName), ...this.extraKeys(agent)].map(lookupKey));
  }

  /** Finds `next` wherever `previous` was found: for a changed record of an agent whose name, e-mail and extra keys stayed the same. */
  replace(previous: A, next: A): void {
    const keys = [lookupKey(agentIdOf(previous)), ...this.aliasKeys(previous)];
    for (const map of [this.canonical, this.aliases]) {
      for (const key of keys) if (map.get(key) === previous) map.set(key, next);
    }
  }

  private addAlias(key: string, agent: A): void {
    if (key === "" || this.canonical.has(key)) return;
    const existing = this.aliases.get(key);
    this.aliases.set(key, existing === undefined || existing === agent ? agent : null);
  }

  find(requestedId: string): AgentIdMatch<A> | null {
    const key = lookupKey(requestedId);
    const agent = this.canonical.get(key) ?? this.aliases.get(key) ?? this.fromDashed(key);
    if (!agent) return null;
    const canonicalId = agentIdOf(agent);
    return { agent, canonicalId, isCanonical: requestedId === canonicalId };
  }

  /** A dashed id typed or mangled by hand still finds the agent when its canonical form does. */
  private fromDashed(key: string): A | undefined {
    const canonical = canonicalIdFromDashed(key);
    return canonical === null ? undefined : this.canonical.get(canonical);
  }
}
