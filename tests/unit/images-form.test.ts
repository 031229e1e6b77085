import { describe, expect, it } from "vitest";
import { MAX_FORM_BYTES, PHOTO_FORM_TOO_LARGE_MESSAGE, photoFormRefusal, readPhotoForm } from "../../app/server/images/photo-form.server";

function multipart(parts: FormData): Request {
  return new Request("http://localhost/complete-profile", { method: "POST", body: parts });
}

/** A body that counts how much of it was read, to show reading stops early. */
function countingRequest(body: FormData): Promise<{ request: Request; read: () => number; total: number }> {
  const probe = new Request("http://localhost/", { method: "POST", body });
  return probe.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    let sent = 0;
    const chunk = 64 * 1024;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(sent, sent + chunk));
        sent += chunk;
      },
    });
    const request = new Request("http://localhost/complete-profile", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": probe.headers.get("Content-Type") ?? "" },
      duplex: "half",
    } as RequestInit);
    return { request, read: () => sent, total: bytes.length };
  });
}

describe("readPhotoForm", () => {
  it("reads text fields and a photo", async () => {
    const parts = new FormData();
    parts.append("licenseNumber", "0654321");
    parts.append("specialties", "Luxury");
    parts.append("specialties", "Land");
    parts.append("photo", new File([new Uint8Array([0xff, 0xd8, 0xff, 1, 2])], "me.jpg", { type: "image/jpeg" }));
    const { formData, refused } = await readPhotoForm(multipart(parts));
    expect(refused).toBeUndefined();
    expect(formData.get("licenseNumber")).toBe("0654321");
    expect(formData.getAll("specialties")).toEqual(["Luxury", "Land"]);
    const photo = formData.get("photo");
    expect(photo).toBeInstanceOf(File);
    expect((photo as File).size).toBe(5);
  });

  it("stops at a photo over 5MB, keeping the fields before it, without reading the whole body", async () => {
    const parts = new FormData();
    parts.append("brokerage", "Lone Star Realty");
    parts.append("photo", new File([new Uint8Array(12 * 1024 * 1024)], "huge.jpg", { type: "image/jpeg" }));
    const { request, read, total } = await countingRequest(parts);
    const { formData, refused } = await readPhotoForm(request);
    expect(refused).toBe("file");
    expect(formData.get("brokerage")).toBe("Lone Star Realty");
    expect(read()).toBeLessThan(total / 2);
  });

  it("refuses a text field far longer than any form field", async () => {
    const parts = new FormData();
    parts.append("bio", "x".repeat(100_000));
    expect((await readPhotoForm(multipart(parts))).refused).toBe("form");
  });

  it("refuses many fields adding up to more than the form limit", async () => {
    const parts = new FormData();
    const field = "x".repeat(15_000);
    for (let index = 0; index * field.length <= MAX_FORM_BYTES; index += 1) parts.append(`f${index}`, field);
    expect((await readPhotoForm(multipart(parts))).refused).toBe("form");
  });

  it("reads plain url-encoded forms too, up to the same limit", async () => {
    const small = new Request("http://localhost/edit-profile", {
      method: "POST",
      body: new URLSearchParams({ fullName: "Dana", city: "Tulsa" }),
    });
    const { formData, refused } = await readPhotoForm(small);
    expect(refused).toBeUndefined();
    expect(Object.fromEntries(formData)).toEqual({ fullName: "Dana", city: "Tulsa" });

    const large = new Request("http://localhost/edit-profile", {
      method: "POST",
      body: new URLSearchParams({ bio: "x".repeat(MAX_FORM_BYTES + 1) }),
    });
    expect((await readPhotoForm(large)).refused).toBe("form");
  });
});

describe("photoFormRefusal", () => {
  it("puts a large file's message beside the photo field and the others on the form, with their statuses", () => {
    expect(photoFormRefusal(undefined)).toBeNull();
    expect(photoFormRefusal("file")).toEqual({ fieldErrors: { photo: ["File size must be less than 5MB"] }, status: 413 });
    expect(photoFormRefusal("form")).toEqual({ formErrors: [PHOTO_FORM_TOO_LARGE_MESSAGE], status: 413 });
    expect(photoFormRefusal("unreadable")).toEqual({
      formErrors: ["This form could not be read. Please reload the page and try again."],
      status: 400,
    });
  });
});
