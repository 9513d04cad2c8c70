import { withoutControls } from "./stored-text";

/**
 * A page's form, read from the request: a body that is no form (JSON, text)
 * or a form cut off on its way (a truncated multipart body) is answered 400
 * with a page that says so — never a 500. Every action reads its form here
 * (lint refuses `request.formData()` elsewhere).
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    // eslint-disable-next-line no-restricted-properties -- the one place a request's form is parsed
    form = await request.formData();
  } catch {
    throw new Response("The request's body is not a form this page can read.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // No control characters reach a page's action (utils/stored-text.ts); passwords are taken as typed.
  const cleaned = new FormData();
  for (const [name, value] of form.entries())
    cleaned.append(name, typeof value === "string" && !/password/i.test(name) ? withoutControls(value) : value);
  return cleaned;
}
