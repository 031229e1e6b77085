import { Form } from "@remix-run/react";

type Props = {
  /** The other agent's row id. */
  agentId: string;
  agentName: string;
  /** Whether the member has blocked them: the button then unblocks. */
  blocked: boolean;
  /** Where the member comes back to afterwards. */
  back: string;
  className?: string;
};

/** Block or unblock another member: a plain form, so it works without JavaScript. */
export function BlockButton({ agentId, agentName, blocked, back, className = "btn-outline" }: Props) {
  return (
    <Form method="post" action="/settings/blocked" className="inline">
      <input type="hidden" name="intent" value={blocked ? "unblock" : "block"} />
      <input type="hidden" name="agent" value={agentId} />
      <input type="hidden" name="back" value={back} />
      <button type="submit" className={className}>
        {blocked ? "Unblock" : "Block"}
        <span className="sr-only"> {agentName}</span>
      </button>
    </Form>
  );
}
