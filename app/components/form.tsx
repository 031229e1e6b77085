/**
 * Forms: the server validates every post (decisions 0001 and 0024); the browser only shows
 * its last answer. A form page is written like this:
 *
 *   // The schema is used by the action only; the component names it as a type, so zod
 *   // stays out of the browser's bundle.
 *   import { contactSchema } from "~/domain/contact";
 *
 *   export async function action({ request }: ActionFunctionArgs) {
 *     const submission = await parseForm(request, contactSchema);
 *     if (submission.status !== "success") return rejectSubmission(submission);
 *     ...
 *   }
 *
 *   export default function Contact() {
 *     const lastResult = useActionData<typeof action>();
 *     const [form, fields] = useValidatedForm<typeof contactSchema>(lastResult, { id: "contact", defaultValue: { name: "" } });
 *     return (
 *       <ValidatedForm form={form}>
 *         <TextField field={fields.name} label="Full Name" />
 *         <SubmitButton busyLabel="Sending...">Send</SubmitButton>
 *       </ValidatedForm>
 *     );
 *   }
 *
 * A component in this file must never import a value from a module that builds zod
 * schemas (tests/integration/browser-bundle.test.ts checks every page's scripts).
 */
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ComponentProps, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { retryValue } from "~/domain/idempotency-key-text";
import { controlProps, FieldError, FieldHint, focusWhenInvalid, initialText, type AnyField } from "./field-parts";

/**
 * The server's answer to a refused form, as `rejectSubmission` sends it: messages by
 * field name ("" for the whole form) and the input kept (never a password).
 */
export type FormResult = {
  error?: Record<string, string[] | null> | null;
  initialValue?: Record<string, unknown> | null;
};

type FormSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** The field names of a schema's input (of every branch, for a union). */
type FieldName<Schema extends FormSchema> =
  z.input<Schema> extends infer Input ? (Input extends unknown ? Extract<keyof Input, string> : never) : never;

/** A value a form may open with; `true` is a ticked checkbox. */
type DefaultFieldValue = string | number | boolean | readonly string[] | null | undefined;

/**
 * The form as a whole: its id, the messages that name no one field, and the form's
 * `onInput`, which takes a field's message away once the member edits that field.
 */
export type FormMeta = { id: string; errorId: string; errors: string[] | undefined; onInput: (event: FormEvent<HTMLFormElement>) => void };

/**
 * The one form set-up every page uses. It reads no schema: the fields show the server's
 * last answer (the messages beside each field, the input kept), else `defaultValue`
 * (a draft, the current profile). The schema's type only names the fields.
 */
export function useValidatedForm<Schema extends FormSchema>(
  lastResult: FormResult | null | undefined,
  options: { id?: string; defaultValue?: { [Name in FieldName<Schema>]?: DefaultFieldValue } } = {},
): [FormMeta, Record<FieldName<Schema>, AnyField>] {
  const generatedId = useId();
  const id = options.id ?? generatedId;
  const errors = lastResult?.error ?? {};
  // The fields edited since the server's last answer: their messages no longer apply, and
  // the summary, which speaks of the whole post, goes with the first edit. A new answer starts afresh.
  const [edited, setEdited] = useState({ answer: lastResult, names: [] as string[] });
  const editedNames = edited.answer === lastResult ? edited.names : [];
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as { name?: unknown }).name;
    if (lastResult?.error && typeof name === "string" && name && !editedNames.includes(name))
      setEdited({ answer: lastResult, names: [...editedNames, name] });
  };
  // Like the server's page: the answer's input when there is one (a cleared field stays clear), else the defaults.
  const values: Record<string, unknown> = lastResult?.initialValue ?? options.defaultValue ?? {};

  useEffect(() => {
    if (lastResult?.error) focusFirstError(id, lastResult.error);
  }, [lastResult, id]);

  const form: FormMeta = { id, errorId: `${id}-error`, errors: editedNames.length ? undefined : messagesOf(errors[""]), onInput };
  const field = (name: string): AnyField => {
    const fieldId = `${id}-${name}`;
    return {
      name,
      id: fieldId,
      formId: id,
      errorId: `${fieldId}-error`,
      descriptionId: `${fieldId}-description`,
      errors: editedNames.includes(name) ? undefined : messagesOf(errors[name]),
      initialValue: formValue(values[name]),
    };
  };
  // Any name the page asks for: the schema's type has already checked it.
  const fields = new Proxy({} as Record<FieldName<Schema>, AnyField>, { get: (_target, name) => field(String(name)) });
  return [form, fields];
}

function messagesOf(messages: string[] | null | undefined): string[] | undefined {
  return messages?.length ? messages : undefined;
}

/** A value as a form control holds it: text, a list of texts, or "on" for a ticked box. */
function formValue(value: unknown): string | string[] | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (value === true) return "on";
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return undefined;
}

/**
 * With JavaScript the page is not reloaded, so `autoFocus` does not act again: focus goes
 * where the server's page would put it, the error summary when there is one (it comes
 * before the fields), else the first control of the first field with a message.
 */
function focusFirstError(formId: string, errors: Record<string, string[] | null>) {
  if (errors[""]?.length) {
    document.getElementById(`${formId}-error`)?.focus();
    return;
  }
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return;
  for (const control of Array.from(form.elements)) {
    const name = control.getAttribute("name");
    if (name && errors[name]?.length && control instanceof HTMLElement) {
      control.focus();
      if (document.activeElement === control) return;
    }
  }
}

type ValidatedFormProps = Omit<ComponentProps<typeof Form>, "method" | "id" | "onSubmit" | "onInput" | "noValidate"> & { form: FormMeta };

/**
 * A real POST form. Browser-native validation is off on purpose: the server
 * answers with the product's own messages (docs/product.md#forms-and-wording), which native bubbles would replace.
 */
export function ValidatedForm({ form, children, ...props }: ValidatedFormProps) {
  return (
    <Form method="post" id={form.id} aria-describedby={form.errors ? form.errorId : undefined} noValidate onInput={form.onInput} {...props}>
      {form.errors ? <FormAlert errors={form.errors} id={form.errorId} /> : null}
      {children}
    </Form>
  );
}

/**
 * The error summary: it comes before the fields, so after a refusal it is what takes
 * focus. `autoFocus` does it in the server's page; React applies it to form controls
 * only, so with JavaScript the summary focuses itself as it appears.
 */
export function FormAlert({ errors, id }: { errors: string[]; id?: string }) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => summary.current?.focus(), []);
  return (
    <div
      ref={summary}
      id={id}
      role="alert"
      tabIndex={-1}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- moving focus to the error summary is what helps here (see above).
      autoFocus
      className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
    >
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  );
}

type FieldShellProps = {
  field: AnyField;
  label: ReactNode;
  hint?: ReactNode;
  /** Says "(optional)" in the label; every other field is `required` (for assistive technology, decision 0001). */
  optional?: boolean;
  children: ReactNode;
};

function FieldShell({ field, label, hint, optional, children }: FieldShellProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-slate-800">
        {label}
        {optional ? <span className="ml-1 font-normal text-slate-500">(optional)</span> : null}
      </label>
      {children}
      {hint ? <FieldHint id={field.descriptionId}>{hint}</FieldHint> : null}
      <FieldError field={field} />
    </div>
  );
}

/** The attributes a shell's control shares: ids and aria, `required`, and focus after a refusal. */
function shellControlProps({ field, hint, optional }: Omit<FieldShellProps, "children" | "label">) {
  return {
    ...controlProps(field, hint ? field.descriptionId : undefined),
    required: !optional,
    ...focusWhenInvalid(field),
  };
}

type TextFieldProps = Omit<FieldShellProps, "children"> & {
  type?: "text" | "email" | "tel" | "password" | "url" | "date" | "search";
} & Pick<ComponentProps<"input">, "autoComplete" | "placeholder" | "inputMode" | "list" | "onInput">;

/** A text box; a password box never opens with a value (the server never sends one back). */
export function TextField({ field, label, hint, optional, type = "text", ...inputProps }: TextFieldProps) {
  return (
    <FieldShell field={field} label={label} hint={hint} optional={optional}>
      <input
        type={type}
        {...shellControlProps({ field, hint, optional })}
        defaultValue={type === "password" ? undefined : initialText(field)}
        {...inputProps}
        className="input"
      />
    </FieldShell>
  );
}

type SelectFieldProps = Omit<FieldShellProps, "children"> & {
  options: ReadonlyArray<{ value: string; label: string }>;
  placeholder: string;
};

export function SelectField({ field, label, hint, optional, options, placeholder }: SelectFieldProps) {
  return (
    <FieldShell field={field} label={label} hint={hint} optional={optional}>
      <select {...shellControlProps({ field, hint, optional })} defaultValue={initialText(field)} className="input">
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

type TextareaFieldProps = Omit<FieldShellProps, "children"> & Pick<ComponentProps<"textarea">, "rows" | "placeholder">;

export function TextareaField({ field, label, hint, optional, rows = 5, placeholder }: TextareaFieldProps) {
  return (
    <FieldShell field={field} label={label} hint={hint} optional={optional}>
      <textarea
        {...shellControlProps({ field, hint, optional })}
        defaultValue={initialText(field)}
        rows={rows}
        placeholder={placeholder}
        className="input"
      />
    </FieldShell>
  );
}

/** A submit button that shows its busy label while the form posts. */
export function SubmitButton({
  children,
  busyLabel,
  className = "btn-primary w-full sm:w-auto",
}: {
  children: ReactNode;
  busyLabel: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <button type="submit" className={className} disabled={busy} aria-busy={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}

/**
 * The form's hidden key (docs/decisions/0032): the one a refused submission sent, marked as
 * a retry (the server then looks for the row past its replica), else the page's new key.
 */
export function IdempotencyKeyInput({ field, fresh }: { field: AnyField; fresh: string }) {
  const kept = typeof field.initialValue === "string" ? retryValue(field.initialValue) : undefined;
  return <input type="hidden" name={field.name} value={kept ?? fresh} />;
}
