import { CheckCircleIcon } from "./icons";

/** The success line after posting, responding, editing or deleting (docs/product.md#forms-and-wording). */
export function RequestNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-4 py-3 text-sm font-semibold text-green-800"
    >
      <CheckCircleIcon className="h-5 w-5 shrink-0" />
      {text}
    </p>
  );
}
