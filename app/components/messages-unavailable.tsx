import { MESSAGES_UNAVAILABLE } from "~/domain/messages";

/** Stands where the messages would be while the database that holds them is out of reach. */
export function MessagesUnavailable({ className = "" }: { className?: string }) {
  return (
    <p role="status" className={`rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 ${className}`}>
      {MESSAGES_UNAVAILABLE}
    </p>
  );
}
