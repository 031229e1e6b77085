import type { AppLoadContext } from "@remix-run/node";
import { beforeEach, describe, expect, it } from "vitest";
import { action as contactAction } from "../../app/routes/contact";
import { action as editProfileAction } from "../../app/routes/edit-profile";
import { action as loginAction, loader as loginLoader } from "../../app/routes/member-login";
import { action as markAction } from "../../app/routes/referral-requests.$id.mark";
import { action as messagesAction } from "../../app/routes/messages";
import { FORM_MAX_FIELDS, FORM_MESSAGES, parseSubmission } from "../../app/server/forms.server";
import { z } from "zod";
import { insertRequest, sessionCookie } from "../integration/requests-support";
import { insertAgent, postForm, testContext } from "../support/services";

type Reply = {
  init: ResponseInit | null;
  data: { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> };
};

/** What an action returned or threw, as a Response when it was one. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function rawPost(url: string, body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost${url}`, { method: "POST", body, headers });
}

const login = (request: Request, context: AppLoadContext) => outcome(() => loginAction({ request, context, params: {} }));
const contact = (request: Request, context: AppLoadContext) => outcome(() => contactAction({ request, context, params: {} }));

let context: AppLoadContext;
beforeEach(() => {
  context = testContext();
});

describe("form field names the form does not define", () => {
  it("refuses a huge list index with 400 and echoes only the form's own fields, never the password", async () => {
    const request = rawPost("/member-login", "email=a%40b.c&password=x&specialties[1000000000]=x", {
      "Content-Type": "application/x-www-form-urlencoded",
    });
    const reply = (await login(request, context)) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.unknownFields]);
    expect(reply.data.initialValue).toEqual({ email: "a@b.c" });
    expect(JSON.stringify(reply).length).toBeLessThan(1000);
  });

  it("refuses a 5,000-deep dotted name without overflowing the stack", async () => {
    const name = `${"a.".repeat(5000)}b`;
    const reply = (await contact(postForm("/contact", { name: "Dana", [name]: "x" }), context)) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.unknownFields]);
    expect(Object.keys(reply.data.initialValue ?? {})).toEqual(["name"]);
  });

  it("refuses an index into a field that is not a list", async () => {
    const reply = (await contact(postForm("/contact", { "name[0]": "Dana" }), context)) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(context.services.store.contact.all()).toEqual([]);
  });

  it("ignores a plain extra name (a button's) and accepts the form", async () => {
    const fields = { name: "Dana Reyes", email: "dana@example.com", category: "general", subject: "Hi", message: "Hello", extra: "button" };
    const result = await contact(postForm("/contact", fields), context);
    expect((result as Response).status).toBe(302);
  });

  it("refuses more fields than any form has", async () => {
    const body = new URLSearchParams({ email: "a@b.c", password: "x" });
    for (let index = 0; index < FORM_MAX_FIELDS; index += 1) body.append("email", "a@b.c");
    const reply = (await login(rawPost("/member-login", body), context)) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.tooManyFields]);
  });

  it("keeps list fields sent with small indexes", async () => {
    const agent = await insertAgent(context);
    const cookie = await sessionCookie(context, agent);
    const body = new URLSearchParams({
      fullName: "Dana Reyes",
      city: "Tulsa",
      state: "OK",
      "specialties[0]": "Land",
      "specialties[1]": "Auction",
      password: "correct horse battery",
    });
    const request = new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } });
    const result = await outcome(() => editProfileAction({ request, context, params: {} }));
    expect((result as Response).status).toBe(302);
    expect(context.services.store.agents.get(agent.id)?.specialties).toEqual(["Land", "Auction"]);
  });

  it("refuses a huge index on the photo form too", async () => {
    const agent = await insertAgent(context);
    const cookie = await sessionCookie(context, agent);
    const body = new FormData();
    body.append("fullName", "Dana Reyes");
    body.append("specialties[1000000000]", "Land");
    body.append("password", "correct horse battery");
    const request = new Request("http://localhost/edit-profile", { method: "POST", body, headers: { Cookie: cookie } });
    const reply = (await outcome(() => editProfileAction({ request, context, params: {} }))) as Reply;
    expect(reply.init?.status).toBe(400);
    expect(reply.data.initialValue).toEqual({ fullName: "Dana Reyes" });
  });
});

describe("a field sent twice", () => {
  const schema = z.object({ feePercent: z.string().optional(), specialties: z.array(z.string()).optional() });
  const formOf = (fields: [string, string][]) => {
    const form = new FormData();
    for (const [name, value] of fields) form.append(name, value);
    return form;
  };

  it("keeps the first value of a one-value field, as FormData.get() does", () => {
    const submission = parseSubmission(
      formOf([
        ["feePercent", "25"],
        ["feePercent", "99"],
      ]),
      schema,
    );
    expect(submission.status === "success" && submission.value).toEqual({ feePercent: "25" });
  });

  it("keeps every value of a list field", () => {
    const submission = parseSubmission(
      formOf([
        ["specialties", "Luxury"],
        ["specialties", "Land"],
      ]),
      schema,
    );
    expect(submission.status === "success" && submission.value).toEqual({ specialties: ["Luxury", "Land"] });
  });
});

describe("bodies that are not web forms", () => {
  const cases: [string, BodyInit | null, Record<string, string>][] = [
    ["JSON", JSON.stringify({ email: "a@b.c", password: "x" }), { "Content-Type": "application/json" }],
    ["text/plain", "email=a@b.c&password=x", { "Content-Type": "text/plain" }],
    ["no content type", new Blob(["email=a%40b.c&password=x"]), {}],
  ];
  for (const [label, body, headers] of cases) {
    it(`answers ${label} with 415 and a message`, async () => {
      const reply = (await login(rawPost("/member-login", body, headers), context)) as Reply;
      expect(reply.init?.status).toBe(415);
      expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.wrongType]);
    });
  }

  it("answers multipart with a wrong or missing boundary with 400", async () => {
    const body = '--right\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--right--\r\n';
    for (const contentType of ["multipart/form-data; boundary=wrong", "multipart/form-data"]) {
      const reply = (await login(rawPost("/member-login", body, { "Content-Type": contentType }), context)) as Reply;
      expect(reply.init?.status).toBe(400);
      expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.unreadable]);
    }
  });

  it("answers a wrong boundary, no boundary or JSON on the photo form with 400", async () => {
    const agent = await insertAgent(context);
    const cookie = await sessionCookie(context, agent);
    for (const contentType of ["multipart/form-data; boundary=wrong", "multipart/form-data", "application/json"]) {
      const request = rawPost("/edit-profile", "--x\r\n\r\n", { "Content-Type": contentType, Cookie: cookie });
      const reply = (await outcome(() => editProfileAction({ request, context, params: {} }))) as Reply;
      expect(reply.init?.status).toBe(400);
    }
    expect(context.services.store.agents.get(agent.id)?.fullName).toBe(agent.fullName);
  });

  it("answers JSON on the message and mark actions with a 4xx", async () => {
    const agent = await insertAgent(context);
    const other = await insertAgent(context);
    const cookie = await sessionCookie(context, agent);
    const json = { "Content-Type": "application/json", Cookie: cookie };
    const message = rawPost(`/messages?to=${other.id}`, JSON.stringify({ text: "hi" }), json);
    const sent = (await outcome(() => messagesAction({ request: message, context, params: {} }))) as Reply;
    expect(sent.init?.status).toBe(400);
    const request = await insertRequest(context, other);
    const mark = rawPost(`/referral-requests/${request.id}/mark`, JSON.stringify({ kind: "saved" }), json);
    const marked = (await outcome(() => markAction({ request: mark, context, params: { id: request.id } }))) as Response;
    expect(marked.status).toBe(415);
    expect(context.services.store.marks.all()).toEqual([]);
  });

  it("refuses a body over 64 KB with 413 without storing anything", async () => {
    const fields = { name: "Dana", email: "dana@example.com", category: "general", subject: "Hi", message: "x".repeat(70 * 1024) };
    const reply = (await contact(postForm("/contact", fields), context)) as Reply;
    expect(reply.init?.status).toBe(413);
    expect(reply.data.error?.[""]).toEqual([FORM_MESSAGES.tooLarge]);
    expect(context.services.store.contact.all()).toEqual([]);
  });

  it("refuses a chunked body as soon as it passes 64 KB", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      // Two megabytes in all, so a reader without a limit ends too (and fails the test).
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) return controller.close();
        sent += 16 * 1024;
        controller.enqueue(new TextEncoder().encode("a".repeat(16 * 1024)));
      },
    });
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      duplex: "half",
    } as RequestInit);
    const reply = (await contact(request, context)) as Reply;
    expect(reply.init?.status).toBe(413);
    expect(sent).toBeLessThan(200 * 1024);
  });
});

describe("control characters", () => {
  it("are stripped from every text field before validation and storage, keeping line breaks and tabs", async () => {
    const fields = {
      name: "Da\u0000na\u0007 Reyes",
      email: "dana@example.com",
      category: "general",
      subject: "Hel\u001blo\u0085",
      message: "Line one\r\n\tLine\u0000 two",
    };
    expect((await contact(postForm("/contact", fields), context)) as Response).toBeInstanceOf(Response);
    expect(context.services.store.contact.all()).toMatchObject([
      { name: "Dana Reyes", subject: "Hello", message: "Line one\r\n\tLine two" },
    ]);
  });
});

describe("line breaks and tabs", () => {
  it("are kept in multi-line fields and become one space in single-line ones", async () => {
    const fields = {
      name: "Dana\r\nReyes",
      email: "dana@example.com",
      category: "general",
      subject: "Bcc: x\n\tHello",
      message: "One\r\n\tTwo",
    };
    await contact(postForm("/contact", fields), context);
    expect(context.services.store.contact.all()).toMatchObject([{ name: "Dana Reyes", subject: "Bcc: x Hello", message: "One\r\n\tTwo" }]);
  });
});

describe("redirectTo outside Latin-1", () => {
  it("logs in and redirects to the percent-encoded path", async () => {
    const agent = await insertAgent(context, { password: "correct horse battery" });
    const body = new URLSearchParams({ email: agent.email, password: "correct horse battery", redirectTo: "/\u0100" });
    const result = (await login(rawPost("/member-login", body), context)) as Response;
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/%C4%80");
  });

  it("sends a logged-in member on from the login page without a 500", async () => {
    const agent = await insertAgent(context);
    const cookie = await sessionCookie(context, agent);
    const request = new Request("http://localhost/member-login?redirectTo=/%C4%80", { headers: { Cookie: cookie } });
    const result = (await outcome(() => loginLoader({ request, context, params: {} }))) as Response;
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/%C4%80");
  });
});
