import { describe, expect, it } from "vitest";
import {
  answerSignedOutPage,
  applyCachePolicy,
  etagMatches,
  pageEtag,
  PERSONAL_CACHE_CONTROL,
  SIGNED_OUT_CACHE_CONTROL,
} from "~/utils/page-caching.server";

const page = (nonce: string, text = "Terms") =>
  `<!DOCTYPE html><html lang="en"><body><p>${text}</p><script nonce="${nonce}">window.__remixContext = {};</script></body></html>`;

describe("which pages may be kept", () => {
  it("a page rendered for a session is kept by no cache", () => {
    const headers = new Headers();
    const request = new Request("http://kallo.test/terms", { headers: { Cookie: "kallo_lang=x; kallo_session=abc" } });
    expect(applyCachePolicy(request, headers)).toBe("personal");
    expect(headers.get("Cache-Control")).toBe(PERSONAL_CACHE_CONTROL);
    expect(headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("a page that sets a cookie (a sign-in, a flash toast) is kept by no cache", () => {
    const headers = new Headers({ "Set-Cookie": "kallo_toast=; Max-Age=0" });
    expect(applyCachePolicy(new Request("http://kallo.test/"), headers)).toBe("personal");
    expect(headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("a signed-out page is kept by the browser, revalidated, and varies by cookies and language", () => {
    const headers = new Headers({ Vary: "Accept-Encoding, cookie" });
    expect(applyCachePolicy(new Request("http://kallo.test/plans"), headers)).toBe("signed-out");
    expect(headers.get("Cache-Control")).toBe(SIGNED_OUT_CACHE_CONTROL);
    expect(headers.get("Cache-Control")).toBe("private, no-cache");
    expect(headers.get("Vary")).toBe("Accept-Encoding, cookie, Accept-Language");
  });
});

describe("validators of signed-out pages", () => {
  it("the same page with another nonce has the same tag; another page does not", () => {
    expect(pageEtag(page("nonceA"), "nonceA")).toBe(pageEtag(page("nonceB"), "nonceB"));
    expect(pageEtag(page("nonceA"), "nonceA")).not.toBe(pageEtag(page("nonceA", "Privacy"), "nonceA"));
    expect(pageEtag(page("nonceA"), "nonceA")).toMatch(/^W\/"[\w-]{27}"$/);
  });

  it.each([
    ['W/"abc"', 'W/"abc"', true],
    ['"abc"', 'W/"abc"', true],
    ['"x", W/"abc"', 'W/"abc"', true],
    ["*", 'W/"abc"', true],
    ['W/"abd"', 'W/"abc"', false],
    [null, 'W/"abc"', false],
  ])("If-None-Match %j against %j: %j", (header, etag, expected) => {
    expect(etagMatches(header, etag)).toBe(expected);
  });

  it("answers 304 without a body or a new policy while the page is unchanged", async () => {
    const headers = () =>
      new Headers({
        "Cache-Control": "private, no-cache",
        Vary: "Cookie, Accept-Language",
        "Content-Security-Policy": "script-src 'nonce-second'",
        "Content-Type": "text/html; charset=utf-8",
      });
    const first = answerSignedOutPage(new Request("http://kallo.test/terms"), page("first"), "first", {
      status: 200,
      headers: headers(),
    });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(page("first"));
    expect(first.headers.get("Content-Length")).toBe(String(Buffer.byteLength(page("first"))));
    const etag = first.headers.get("ETag")!;

    const request = new Request("http://kallo.test/terms", { headers: { "If-None-Match": etag } });
    const second = answerSignedOutPage(request, page("second"), "second", { status: 200, headers: headers() });
    expect(second.status).toBe(304);
    expect(second.body).toBeNull();
    expect(second.headers.get("ETag")).toBe(etag);
    expect(second.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(second.headers.get("Vary")).toBe("Cookie, Accept-Language");
    // The browser keeps its copy's policy, whose nonce its copy's scripts carry.
    expect(second.headers.get("Content-Security-Policy")).toBeNull();
  });
});
