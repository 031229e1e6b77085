// @vitest-environment happy-dom
/**
 * The form every page uses, in a browser's document with JavaScript: the server's answer to
 * a refused post puts each message beside its field, keeps the input (never a password),
 * moves focus to the first error, and an edit takes that field's message away.
 */
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useActionData } from "@remix-run/react";
import { afterEach, describe, expect, it } from "vitest";
import { SelectField, SubmitButton, TextareaField, TextField, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { renderRoute } from "../../support/route-stub";

type Fields = { name: string; email: string; password: string; state: string; message: string };
type ContactLike = import("zod").ZodType<Fields, Fields>;

const NAME_MESSAGE = "Please enter your full name";
const EMAIL_MESSAGE = "Please enter a valid email address";
const FORM_MESSAGE = "Too many tries. Please wait a minute and try again.";

function ContactPage() {
  const lastResult = useActionData<FormResult>();
  const [form, fields] = useValidatedForm<ContactLike>(lastResult, { id: "contact", defaultValue: { name: "", state: "TX" } });
  return (
    <ValidatedForm form={form}>
      <TextField field={fields.name} label="Full Name" />
      <TextField field={fields.email} label="Email" type="email" hint="We never share it" />
      <TextField field={fields.password} label="Password" type="password" />
      <SelectField
        field={fields.state}
        label="State"
        placeholder="Choose a state"
        options={[
          { value: "TX", label: "Texas" },
          { value: "OK", label: "Oklahoma" },
        ]}
      />
      <TextareaField field={fields.message} label="Message" optional />
      <SubmitButton busyLabel="Sending...">Send</SubmitButton>
    </ValidatedForm>
  );
}

/** The server's refusal of a post: the messages by field, and the input kept less the password. */
function refusal(posted: FormData, error: Record<string, string[]>): FormResult {
  const initialValue = Object.fromEntries([...posted.entries()].filter(([name]) => name !== "password"));
  return { error, initialValue };
}

/** An action that refuses every post with the name's and the e-mail's messages. */
async function refuseNameAndEmail({ request }: { request: Request }) {
  return refusal(await request.formData(), { name: [NAME_MESSAGE], email: [EMAIL_MESSAGE] });
}

function fill(label: string, value: string) {
  fireEvent.input(screen.getByLabelText(label, { exact: false }), { target: { value } });
}

async function send() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
  });
}

function control(label: string) {
  return screen.getByLabelText(label, { exact: false }) as HTMLInputElement;
}

afterEach(cleanup);

describe("a form refused by the server, with JavaScript", () => {
  it("shows each field's message beside it, linked from the control and marked invalid", async () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    await send();
    await screen.findByText(NAME_MESSAGE);
    expect(control("Full Name").getAttribute("aria-invalid")).toBe("true");
    expect(control("Full Name").getAttribute("aria-describedby")).toBe("contact-name-error");
    expect(document.getElementById("contact-name-error")?.textContent).toBe(NAME_MESSAGE);
    // The error comes first, then the hint.
    expect(control("Email").getAttribute("aria-describedby")).toBe("contact-email-error contact-email-description");
    expect(document.getElementById("contact-email-error")?.textContent).toBe(EMAIL_MESSAGE);
    expect(control("State").getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps what was typed and chosen", async () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    fill("Full Name", "D");
    fill("Email", "dana@");
    fireEvent.change(control("State"), { target: { value: "OK" } });
    fill("Message", "Looking for a buyer's agent in Tulsa");
    await send();
    await screen.findByText(NAME_MESSAGE);
    expect(control("Full Name").value).toBe("D");
    expect(control("Email").value).toBe("dana@");
    expect(control("State").value).toBe("OK");
    expect(control("Message").value).toBe("Looking for a buyer's agent in Tulsa");
  });

  it("moves focus to the first field with a message", async () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    await send();
    await screen.findByText(NAME_MESSAGE);
    await waitFor(() => expect(document.activeElement).toBe(control("Full Name")));
  });

  it("moves focus to the summary when the message is about the whole form, shown before the fields", async () => {
    renderRoute(ContactPage, async ({ request }) => refusal(await request.formData(), { "": [FORM_MESSAGE], email: [EMAIL_MESSAGE] }));
    await send();
    const summary = await screen.findByRole("alert");
    expect(summary.textContent).toBe(FORM_MESSAGE);
    expect(document.getElementById("contact")?.getAttribute("aria-describedby")).toBe("contact-error");
    expect(summary.compareDocumentPosition(control("Full Name")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(summary));
  });

  it("takes a field's message away once it is edited, leaving the others until theirs are", async () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    await send();
    await screen.findByText(NAME_MESSAGE);
    fill("Full Name", "Dana Reyes");
    expect(screen.queryByText(NAME_MESSAGE)).toBeNull();
    expect(control("Full Name").getAttribute("aria-invalid")).toBeNull();
    expect(control("Full Name").value).toBe("Dana Reyes");
    expect(screen.getByText(EMAIL_MESSAGE)).toBeTruthy();
    fill("Email", "dana@example.com");
    expect(screen.queryByText(EMAIL_MESSAGE)).toBeNull();
  });

  it("takes the summary away with the first edit", async () => {
    renderRoute(ContactPage, async ({ request }) => refusal(await request.formData(), { "": [FORM_MESSAGE] }));
    await send();
    await screen.findByRole("alert");
    fill("Message", "again");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.getElementById("contact")?.getAttribute("aria-describedby")).toBeNull();
  });

  it("shows the messages again when the next post is refused too", async () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    await send();
    await screen.findByText(NAME_MESSAGE);
    fill("Full Name", "D");
    expect(screen.queryByText(NAME_MESSAGE)).toBeNull();
    await send();
    await screen.findByText(NAME_MESSAGE);
    expect(control("Full Name").value).toBe("D");
  });

  it("says the busy label on the button while the post is on its way", async () => {
    let answer: (result: FormResult) => void = () => {};
    renderRoute(ContactPage, () => new Promise<FormResult>((resolve) => (answer = resolve)));
    await send();
    const button = await screen.findByRole("button", { name: "Sending..." });
    expect(button.hasAttribute("disabled")).toBe(true);
    await act(async () => answer({ error: { name: [NAME_MESSAGE] }, initialValue: {} }));
    await screen.findByRole("button", { name: "Send" });
  });
});

describe("a form refused by the server, as the server's page opens it", () => {
  it("opens with the messages, the input kept but never a password, and focus on the first field with a message", async () => {
    renderRoute(ContactPage, refuseNameAndEmail, {
      actionData: {
        error: { email: [EMAIL_MESSAGE], message: ["Please keep it under 2,000 characters"] },
        // A password in the answer is a server's mistake: the box still opens empty.
        initialValue: { name: "Dana", email: "dana@", password: "secret-typed" },
      },
    });
    expect(screen.getByText(EMAIL_MESSAGE)).toBeTruthy();
    expect(control("Full Name").value).toBe("Dana");
    expect(control("Email").value).toBe("dana@");
    expect(control("Password").value).toBe("");
    await waitFor(() => expect(document.activeElement).toBe(control("Email")));
  });

  it("opens with the defaults when there is no answer yet, and no message", () => {
    renderRoute(ContactPage, refuseNameAndEmail);
    expect(control("State").value).toBe("TX");
    expect(control("Full Name").value).toBe("");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.querySelectorAll("[aria-invalid]").length).toBe(0);
  });
});
