import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type DefaultValue,
  type FormMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type ComponentProps, type ReactNode } from "react";
import type { z } from "zod";
import { FieldError, FieldHint, focusWhenInvalid, type AnyField } from "./field-parts";

/**
 * The one form set-up every page uses: the server's last result (errors and the
 * input kept) when JavaScript is off, the same zod schema on blur and input when on.
 * `defaultValue` fills a form that opens with values in it (a draft, the current profile).
 */
export function useValidatedForm<Schema extends z.ZodType<Record<string, unknown>, Record<string, unknown>>>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  options: { id?: string; defaultValue?: DefaultValue<z.input<Schema>> } = {},
) {
  return useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    defaultValue: options.defaultValue,
    lastResult,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
}

type ValidatedFormProps<Shape extends Record<string, unknown>> = Omit<
  ComponentProps<typeof Form>,
  "method" | "id" | "onSubmit" | "noValidate"
> & {
  form: FormMetadata<Shape, string[]>;
};

/**
 * A real POST form. Browser-native validation is off on purpose: the server
 * answers with the spec's own messages, which native bubbles would replace.
 */
export function ValidatedForm<Shape extends Record<string, unknown>>({ form, children, ...props }: ValidatedFormProps<Shape>) {
  return (
    <Form method="post" {...getFormProps(form)} noValidate {...props}>
      {form.errors?.length ? <FormAlert errors={form.errors} id={form.errorId} /> : null}
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

type TextFieldProps = Omit<FieldShellProps, "children"> & {
  type?: "text" | "email" | "tel" | "password" | "url" | "date" | "search";
} & Pick<ComponentProps<"input">, "autoComplete" | "placeholder" | "inputMode">;

export function TextField({ field, label, hint, optional, type = "text", ...inputProps }: TextFieldProps) {
  return (
    <FieldShell field={field} label={label} hint={hint} optional={optional}>
      <input
        {...getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined, value: type !== "password" })}
        {...inputProps}
        {...focusWhenInvalid(field)}
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
      <select
        {...getSelectProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })}
        {...focusWhenInvalid(field)}
        className="input"
      >
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
        {...getTextareaProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })}
        rows={rows}
        placeholder={placeholder}
        {...focusWhenInvalid(field)}
        className="input"
      />
    </FieldShell>
  );
}

/** A submit button that shows the spec's busy label while the form posts. */
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
