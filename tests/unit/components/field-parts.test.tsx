// @vitest-environment happy-dom
/**
 * The parts every custom field is built from (a checkbox group, a text box with a counter),
 * in a browser's document: the message beside the field and linked from each control, the
 * hint after it, the input kept, focus on the first field with a message, and a message
 * gone once its field is edited.
 */
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useActionData } from "@remix-run/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  controlProps,
  describedBy,
  FieldError,
  FieldHint,
  focusWhenInvalid,
  initialText,
  initiallyChecked,
  type AnyField,
} from "~/components/field-parts";
import { SubmitButton, useValidatedForm, ValidatedForm, type FormResult } from "~/components/form";
import { renderRoute } from "../../support/route-stub";

type Fields = { areas: string[]; headline: string; consent: string };
type AreasForm = import("zod").ZodType<Fields, Fields>;

const AREAS = ["Dallas", "Tulsa", "Waco"] as const;
const AREAS_MESSAGE = "Choose at least one area";
const HEADLINE_MESSAGE = "Please keep the headline under 80 characters";
const CONSENT_MESSAGE = "Please agree to be listed";

/** A checkbox group built from the parts, as specialty-checkboxes.tsx is. */
function AreaBoxes({ field }: { field: AnyField }) {
  return (
    <fieldset aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend>Areas</legend>
      {AREAS.map((area, index) => (
        <label key={area} htmlFor={`${field.id}-${area}`}>
          <input
            type="checkbox"
            {...controlProps(field)}
            id={`${field.id}-${area}`}
            value={area}
            defaultChecked={initiallyChecked(field, area)}
            {...(index === 0 ? focusWhenInvalid(field) : {})}
          />
          {area}
        </label>
      ))}
      <FieldError field={field} />
    </fieldset>
  );
}

/** A text box with a hint and a live counter, as bio-field.tsx is. */
function Headline({ field }: { field: AnyField }) {
  const counterId = `${field.id}-counter`;
  return (
    <div>
      <label htmlFor={field.id}>Headline</label>
      <input
        {...controlProps(field)}
        aria-describedby={describedBy(field, counterId)}
        {...focusWhenInvalid(field)}
        defaultValue={initialText(field)}
      />
      <span id={counterId}>of 80</span>
      <FieldError field={field} />
    </div>
  );
}

/** A single checkbox with a hint, which posts "on" when ticked. */
function Consent({ field }: { field: AnyField }) {
  return (
    <div>
      <input
        type="checkbox"
        {...controlProps(field, field.descriptionId)}
        {...focusWhenInvalid(field)}
        defaultChecked={initiallyChecked(field)}
      />
      <label htmlFor={field.id}>List me in the directory</label>
      <FieldHint id={field.descriptionId}>Members only see it</FieldHint>
      <FieldError field={field} />
    </div>
  );
}

function AreasPage() {
  const lastResult = useActionData<FormResult>();
  const [form, fields] = useValidatedForm<AreasForm>(lastResult, { id: "areas", defaultValue: { areas: ["Waco"], consent: true } });
  return (
    <ValidatedForm form={form}>
      <AreaBoxes field={fields.areas} />
      <Headline field={fields.headline} />
      <Consent field={fields.consent} />
      <SubmitButton busyLabel="Saving...">Save</SubmitButton>
    </ValidatedForm>
  );
}

/** Refuses every post with `error`, keeping what was posted (every value of a repeated name). */
function refuseWith(error: Record<string, string[]>) {
  return async ({ request }: { request: Request }): Promise<FormResult> => {
    const posted = await request.formData();
    const initialValue = Object.fromEntries(
      [...new Set(posted.keys())].map((name) => [name, name === "areas" ? posted.getAll(name) : posted.get(name)]),
    );
    return { error, initialValue };
  };
}

function box(label: string) {
  return screen.getByLabelText(label) as HTMLInputElement;
}

async function save() {
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
  });
}

afterEach(cleanup);

describe("a field built from the parts, with no message", () => {
  it("opens with the form's defaults: a list ticks its boxes, true ticks a single box", () => {
    renderRoute(AreasPage, refuseWith({}));
    expect(AREAS.map((area) => box(area).checked)).toEqual([false, false, true]);
    expect(box("List me in the directory").checked).toBe(true);
  });

  it("carries its id, name and form on every control, no aria-invalid, and points only at its hint or counter", () => {
    renderRoute(AreasPage, refuseWith({}));
    expect(box("Tulsa").id).toBe("areas-areas-Tulsa");
    expect(box("Tulsa").name).toBe("areas");
    expect(box("Tulsa").getAttribute("form")).toBe("areas");
    expect(box("Tulsa").hasAttribute("aria-invalid")).toBe(false);
    expect(box("Tulsa").hasAttribute("aria-describedby")).toBe(false);
    expect(box("Headline").getAttribute("aria-describedby")).toBe("areas-headline-counter");
    expect(box("List me in the directory").getAttribute("aria-describedby")).toBe("areas-consent-description");
    expect(document.getElementById("areas-consent-description")?.textContent).toBe("Members only see it");
    expect(document.querySelectorAll('[id$="-error"]').length).toBe(0);
  });
});

describe("a field built from the parts, after the server refused the post", () => {
  it("shows its first message beside it and links every control to it, before the hint", async () => {
    renderRoute(AreasPage, refuseWith({ areas: [AREAS_MESSAGE, "A second message is not shown"], consent: [CONSENT_MESSAGE] }));
    await save();
    await screen.findByText(AREAS_MESSAGE);
    expect(screen.queryByText("A second message is not shown")).toBeNull();
    for (const area of AREAS) {
      expect(box(area).getAttribute("aria-invalid")).toBe("true");
      expect(box(area).getAttribute("aria-describedby")).toBe("areas-areas-error");
    }
    expect(document.getElementById("areas-areas-error")?.textContent).toBe(AREAS_MESSAGE);
    expect(box("List me in the directory").getAttribute("aria-describedby")).toBe("areas-consent-error areas-consent-description");
    expect(box("Headline").hasAttribute("aria-invalid")).toBe(false);
  });

  it("keeps the boxes ticked and the text typed", async () => {
    renderRoute(AreasPage, refuseWith({ headline: [HEADLINE_MESSAGE] }));
    fireEvent.click(box("Dallas"));
    fireEvent.click(box("Waco"));
    fireEvent.click(box("List me in the directory"));
    fireEvent.input(box("Headline"), { target: { value: "Ranch land specialist" } });
    await save();
    await screen.findByText(HEADLINE_MESSAGE);
    expect(AREAS.map((area) => box(area).checked)).toEqual([true, false, false]);
    expect(box("List me in the directory").checked).toBe(false);
    expect(box("Headline").value).toBe("Ranch land specialist");
    // The counter, named first, stays; the message follows it.
    expect(box("Headline").getAttribute("aria-describedby")).toBe("areas-headline-counter areas-headline-error");
  });

  it("moves focus to the first field with a message", async () => {
    renderRoute(AreasPage, refuseWith({ headline: [HEADLINE_MESSAGE], consent: [CONSENT_MESSAGE] }));
    await save();
    await screen.findByText(HEADLINE_MESSAGE);
    await waitFor(() => expect(document.activeElement).toBe(box("Headline")));
  });

  it("takes the message away once its field is edited", async () => {
    renderRoute(AreasPage, refuseWith({ headline: [HEADLINE_MESSAGE], consent: [CONSENT_MESSAGE] }));
    await save();
    await screen.findByText(HEADLINE_MESSAGE);
    fireEvent.input(box("Headline"), { target: { value: "Short" } });
    expect(screen.queryByText(HEADLINE_MESSAGE)).toBeNull();
    expect(box("Headline").getAttribute("aria-describedby")).toBe("areas-headline-counter");
    expect(screen.getByText(CONSENT_MESSAGE)).toBeTruthy();
  });
});

describe("a field built from the parts, as the server's page opens it after a refusal", () => {
  it("asks for focus on the first field with a message, and keeps the input", async () => {
    renderRoute(AreasPage, refuseWith({}), {
      actionData: { error: { areas: [AREAS_MESSAGE], consent: [CONSENT_MESSAGE] }, initialValue: { headline: "Ranch land", areas: [] } },
    });
    expect(box("Headline").value).toBe("Ranch land");
    expect(AREAS.map((area) => box(area).checked)).toEqual([false, false, false]);
    expect(box("List me in the directory").checked).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(box("Dallas")));
  });
});
