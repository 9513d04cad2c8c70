import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  isHoneypotFilled,
  parseForm,
  profileSchema,
  providerRegistrationSchema,
  registrationSchema,
  signInSchema,
} from "~/services/validation";

const good = {
  name: "Amina Bello",
  phoneNumber: "+234 803 123 4567",
  email: "Amina@Example.com ",
  password: "sirrin-kallo",
  password2: "sirrin-kallo",
};

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

describe("registration rules", () => {
  it("accepts a complete form and lower-cases the email", () => {
    const result = parseForm(registrationSchema, form(good));
    expect(result).toEqual({ success: true, data: { ...good, email: "amina@example.com" } });
  });

  it("requires every field but the email, each with its own message (a phone number is a way in)", () => {
    const result = parseForm(registrationSchema, form({}));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.fieldErrors).toEqual({
      name: ["auth:validation.nameRequired"],
      phoneNumber: ["auth:validation.phoneRequired"],
      password: ["auth:validation.passwordRequired"],
      password2: ["auth:validation.password2Required"],
    });
    const withoutEmail = parseForm(registrationSchema, form({ ...good, email: "  " }));
    expect(withoutEmail.success && withoutEmail.data.email).toBeNull();
  });

  it("refuses an invalid email, a short password and a bad phone number", () => {
    const result = parseForm(
      registrationSchema,
      form({ ...good, email: "not-an-email", password: "short", password2: "short", phoneNumber: "call me" }),
    );
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.fieldErrors.email).toEqual(["auth:validation.emailInvalid"]);
    expect(result.fieldErrors.password).toEqual(["auth:validation.passwordTooShort"]);
    expect(result.fieldErrors.phoneNumber).toEqual(["auth:validation.phoneInvalid"]);
  });

  it("accepts exactly 8 characters and refuses 7", () => {
    expect(parseForm(registrationSchema, form({ ...good, password: "12345678", password2: "12345678" })).success).toBe(
      true,
    );
    expect(parseForm(registrationSchema, form({ ...good, password: "1234567", password2: "1234567" })).success).toBe(
      false,
    );
  });

  it("says when the confirmation does not match, on the confirmation field", () => {
    const result = parseForm(registrationSchema, form({ ...good, password2: "something-else" }));
    expect(result).toEqual({ success: false, fieldErrors: { password2: ["auth:validation.passwordsDontMatch"] } });
  });

  it("treats a file part or a blank string as missing", () => {
    const data = form({ ...good, name: "   " });
    data.set("phoneNumber", new Blob(["x"]));
    const result = parseForm(registrationSchema, data);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.fieldErrors.name).toEqual(["auth:validation.nameRequired"]);
    expect(result.fieldErrors.phoneNumber).toEqual(["auth:validation.phoneRequired"]);
  });
});

describe("other account forms", () => {
  it("provider registration uses providerName", () => {
    const result = parseForm(providerRegistrationSchema, {
      providerName: "Kannywood Studio",
      email: "studio@example.com",
      phoneNumber: "08031234567",
      password: "a-long-one",
      password2: "a-long-one",
    });
    expect(result.success).toBe(true);
    expect(parseForm(providerRegistrationSchema, { email: "studio@example.com" }).success).toBe(false);
  });

  it("sign-in only checks presence and the email's shape", () => {
    expect(parseForm(signInSchema, { email: "a@b.co", password: "x" }).success).toBe(true);
    expect(parseForm(signInSchema, { email: "a@b.co", password: "" })).toEqual({
      success: false,
      fieldErrors: { password: ["auth:validation.passwordRequired"] },
    });
  });

  it("profile needs name, email and phone", () => {
    expect(parseForm(profileSchema, { name: "A", email: "a@b.co", phoneNumber: "0803 123 4567" }).success).toBe(true);
    expect(parseForm(profileSchema, { name: "", email: "a@b.co", phoneNumber: "0803 123 4567" }).success).toBe(false);
  });

  it("changing the password needs the current one and a matching new one", () => {
    expect(
      parseForm(changePasswordSchema, { currentPassword: "", password: "new-password", password2: "new-password" }),
    ).toEqual({
      success: false,
      fieldErrors: { currentPassword: ["auth:validation.currentPasswordRequired"] },
    });
  });

  it("notices a filled honeypot", () => {
    expect(isHoneypotFilled(form({ website: "http://spam.example" }))).toBe(true);
    expect(isHoneypotFilled(form({ website: "" }))).toBe(false);
    expect(isHoneypotFilled(form({}))).toBe(false);
  });
});

describe("page numbers", () => {
  it("are whole numbers from 1 to a million; anything else is page 1", async () => {
    const { pageNumber } = await import("~/utils/paging");
    expect(pageNumber("2")).toBe(2);
    expect(pageNumber(" 5 ")).toBe(5);
    expect(pageNumber("1000000")).toBe(1_000_000);
    for (const bad of [null, undefined, "", "0", "-3", "abc", "1.5", "1e9", "1000001", "99999999999999999999"])
      expect(pageNumber(bad), String(bad)).toBe(1);
  });
});
