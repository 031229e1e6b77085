import { createElement, Fragment } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SelectField, TextField, useValidatedForm, type FormResult } from "../../app/components/form";
import { SpecialtyCheckboxes } from "../../app/components/specialty-checkboxes";
import type { editProfileSchema } from "../../app/domain/profile";

type Defaults = NonNullable<Parameters<typeof useValidatedForm<typeof editProfileSchema>>[1]>["defaultValue"];

/** The server's HTML of a few edit-profile fields after `lastResult`, opened with `defaultValue`. */
function render(lastResult: FormResult | null, defaultValue?: Defaults): string {
  function Fields() {
    const [, fields] = useValidatedForm<typeof editProfileSchema>(lastResult, { id: "profile", defaultValue });
    return createElement(
      Fragment,
      null,
      createElement(TextField, { field: fields.fullName, label: "Full Name" }),
      createElement(TextField, { field: fields.phone, label: "Phone", optional: true, hint: "For example (214) 555-0100" }),
      createElement(SelectField, { field: fields.state, label: "State", placeholder: "Pick", options: [{ value: "TX", label: "Texas" }] }),
      createElement(TextField, { field: fields.password, label: "Password", type: "password" }),
      createElement(SpecialtyCheckboxes, { field: fields.specialties }),
    );
  }
  return renderToString(createElement(Fields));
}

/** The opening tag of the element with this id. */
function tag(html: string, id: string): string {
  return new RegExp(`<[a-z]+ [^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? `no element #${id}`;
}

describe("form fields from the server's answer", () => {
  it("show each field's message beside it, linked and marked invalid, with the input kept but never a password", () => {
    const html = render({
      error: { phone: ["Please enter a valid phone number"] },
      initialValue: { fullName: "Dana Reyes", phone: "12", state: "TX", password: "secret-typed", specialties: ["Luxury", "Land"] },
    });
    expect(tag(html, "profile-phone")).toContain('aria-invalid="true"');
    expect(tag(html, "profile-phone")).toContain('aria-describedby="profile-phone-error profile-phone-description"');
    expect(tag(html, "profile-phone")).toContain('value="12"');
    expect(tag(html, "profile-phone")).toContain("autofocus");
    expect(tag(html, "profile-phone-error")).toBeTruthy();
    expect(html).toContain(">Please enter a valid phone number</p>");
    expect(tag(html, "profile-fullName")).toContain('value="Dana Reyes"');
    expect(tag(html, "profile-fullName")).not.toContain("aria-invalid");
    expect(tag(html, "profile-fullName")).not.toContain("aria-describedby");
    expect(tag(html, "profile-password")).not.toContain("value=");
    expect(html).not.toContain("secret-typed");
    expect(html).toMatch(/<option value="TX" selected="">/);
    expect(tag(html, "profile-specialties-Luxury")).toContain('checked=""');
    expect(tag(html, "profile-specialties-Residential")).not.toContain("checked");
  });

  it("name controls by the form's id, mark every field not labelled optional as required, and tie them to the form", () => {
    const html = render(null);
    expect(tag(html, "profile-fullName")).toMatch(/name="fullName" form="profile".*required=""/);
    expect(tag(html, "profile-phone")).not.toContain("required");
    expect(tag(html, "profile-phone")).toContain('aria-describedby="profile-phone-description"');
    expect(tag(html, "profile-specialties-Land")).toContain('name="specialties"');
  });

  it("open with the defaults until the server answers, then with its input alone: a cleared field stays clear", () => {
    const defaults: Defaults = { fullName: "Casey Morgan", phone: "(214) 555-0100", specialties: ["Auction"] };
    const opened = render(null, defaults);
    expect(tag(opened, "profile-fullName")).toContain('value="Casey Morgan"');
    expect(tag(opened, "profile-specialties-Auction")).toContain('checked=""');

    const answered = render({ error: { fullName: ["Full name is required"] }, initialValue: { phone: "(214) 555-0100" } }, defaults);
    expect(tag(answered, "profile-fullName")).not.toContain("value=");
    expect(tag(answered, "profile-specialties-Auction")).not.toContain("checked");
  });
});
