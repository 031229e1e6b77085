/** The one-time line a settings-like page shows after its own form was stored (docs/decisions/0064). */
export function SavedNotice({ text, className = "" }: { text: string | null; className?: string }) {
  if (!text) return null;
  return (
    <p role="status" className={`rounded-lg border border-green-200 bg-green-50 px-4 py-3 font-medium text-green-900 ${className}`.trim()}>
      {text}
    </p>
  );
}
