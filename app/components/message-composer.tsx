import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { controlProps, initialText } from "~/components/field-parts";
import { FormAlert, IdempotencyKeyInput, useValidatedForm, type FormResult } from "~/components/form";
import type { messageSchema } from "~/domain/message-box";

type Props = {
  /** The page's new form key (docs/decisions/0032). */
  idempotencyKey: string;
  /** The server's answer to the last Send that failed (the error, the text kept). */
  lastResult: FormResult | undefined;
  /** Why the last Share My Contact Info failed, if it did. */
  shareError: string | undefined;
  /** What the sender should know about the message just sent (control characters removed from it). */
  notice: string | null;
};

/** Enter sends, Shift+Enter adds a line; an IME composing text keeps Enter for itself. */
function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
  event.preventDefault();
  if (event.currentTarget.value.trim() !== "") event.currentTarget.form?.requestSubmit();
}

/**
 * Share My Contact Info and the message box. Both post to the page's own address;
 * without JavaScript the page comes back with the message in the thread and an empty
 * box, with JavaScript the box is emptied once the message is stored.
 */
export function MessageComposer({ idempotencyKey, lastResult, shareError, notice }: Props) {
  const [form, fields] = useValidatedForm<typeof messageSchema>(lastResult, { id: "message-form" });
  const box = useRef<HTMLTextAreaElement>(null);
  const navigation = useNavigation();
  const intent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const sending = intent === "send";
  const wasSending = useRef(false);
  // Enter sends only once the page's script runs; before that it adds a line.
  const [enterSends, setEnterSends] = useState(false);
  useEffect(() => setEnterSends(true), []);

  useEffect(() => {
    if (sending) {
      wasSending.current = true;
    } else if (navigation.state === "idle" && wasSending.current) {
      wasSending.current = false;
      // A stored message redirects back here with no action data; a refused one keeps its text.
      // Emptied in place, so focus stays in the box for the next message.
      if (!lastResult && box.current) box.current.value = "";
    }
  }, [sending, navigation.state, lastResult]);

  return (
    <div className="border-t border-slate-200 bg-white p-3 sm:p-4">
      {shareError ? <FormAlert errors={[shareError]} /> : null}
      {notice && !lastResult ? (
        <p role="status" className="mb-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      <Form method="post" className="mb-3">
        <input type="hidden" name="intent" value="share" />
        <button type="submit" className="btn-outline px-3 py-1.5 text-xs" disabled={intent === "share"}>
          Share My Contact Info
        </button>
      </Form>
      <Form method="post" id={form.id} aria-describedby={form.errors ? form.errorId : undefined} noValidate onInput={form.onInput}>
        {form.errors ? <FormAlert errors={form.errors} id={form.errorId} /> : null}
        <input type="hidden" name="intent" value="send" />
        <IdempotencyKeyInput field={fields.idempotencyKey} fresh={idempotencyKey} />
        <label htmlFor={fields.text.id} className="sr-only">
          Message
        </label>
        <div className="flex items-end gap-2">
          <textarea
            ref={box}
            {...controlProps(fields.text)}
            required
            defaultValue={initialText(fields.text)}
            rows={2}
            placeholder="Type your message..."
            onKeyDown={sendOnEnter}
            className="input max-h-40 min-h-12 flex-1 resize-y"
          />
          <button type="submit" className="btn-primary h-12 shrink-0" disabled={sending} aria-busy={sending}>
            {sending ? "Sending..." : "Send"}
          </button>
        </div>
        {fields.text.errors?.length ? (
          <p id={fields.text.errorId} className="mt-1.5 text-sm font-medium text-red-700">
            {fields.text.errors[0]}
          </p>
        ) : enterSends ? (
          <p className="mt-1.5 hidden text-xs text-slate-500 md:block">Press Enter to send, Shift+Enter for a new line.</p>
        ) : null}
      </Form>
    </div>
  );
}
