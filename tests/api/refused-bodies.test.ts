import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, RawConnection, seedAccount, startApiWorld } from "./helpers";
import type { ApiWorld, Credentials } from "./helpers";

/**
 * A request refused before its body has been read (too large for a form, the
 * wrong role for an upload) is answered at once, while the client may still
 * be sending. Its answer must reach a client that reads only once its last
 * byte has gone — a browser uploading does — and the connection must carry
 * the next request once the body has ended. The bodies here are a few MB:
 * more than the 1 MB the server used to read before closing the connection
 * (and resetting the client) instead.
 */
let world: ApiWorld;
let host: string;
let provider: Credentials;
let viewer: Credentials;

beforeAll(async () => {
  // Uploads up to 1 MB a file: a body of a few MB is over the limit by its declared length.
  process.env.MAX_UPLOAD_MB = "1";
  world = await startApiWorld("refused-bodies");
  host = new URL(world.url).host;
  [provider, viewer] = await Promise.all([
    login(world, seedAccount(world, "provider")),
    login(world, seedAccount(world, "viewer")),
  ]);
});
afterAll(async () => {
  await world?.stop();
});

const MB = 1024 * 1024;

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ Host: host, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n`;
}

/** A multipart film upload of `size` bytes of film (zeros: refused before anything looks at them). */
function filmForm(size: number): { type: string; body: Buffer } {
  const boundary = "----refused";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nRefused\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="refused.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    ),
    Buffer.alloc(size),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}

/**
 * `steps` on one raw connection; then the connection must carry the next
 * request (the refused bodies have ended) and never have failed (no reset).
 */
async function onOneConnection(steps: (connection: RawConnection) => Promise<void>): Promise<void> {
  const connection = await RawConnection.open(world);
  try {
    await steps(connection);
    await connection.send(head("GET", "/healthz", {}));
    expect((await connection.read()).status).toBe(200);
    expect(connection.failure).toBeNull();
  } finally {
    connection.close();
  }
}

/** A request whose answer comes after its first 64 kB: the rest of the body is sent before the answer is read. */
function sendPastTheAnswer(
  connection: RawConnection,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body: Buffer,
) {
  const measured = "Transfer-Encoding" in headers ? headers : { ...headers, "Content-Length": body.length };
  return connection.sendPastTheAnswer(head(method, path, measured), body, 64 * 1024);
}

describe("a refused body's answer reaches a client that is still sending it", () => {
  it("over the form limit (413) or without a length (411): the answer, then the next request on the same connection", async () => {
    await onOneConnection(async (connection) => {
      const form = Buffer.from(`email=${"x".repeat(3 * MB)}`);
      const page = await sendPastTheAnswer(
        connection,
        "POST",
        "/login",
        { "Content-Type": "application/x-www-form-urlencoded" },
        form,
      );
      expect(page.status).toBe(413);
      expect(page.body).toContain("The request is too large: the limit is 64 kB.");
      expect(page.body).toContain("Abin da aka aika ya yi girma: iyaka 64 kB ne.");

      const json = Buffer.from(JSON.stringify({ email: "x".repeat(3 * MB) }));
      const api = await sendPastTheAnswer(
        connection,
        "POST",
        "/api/user/login",
        { "Content-Type": "application/json" },
        json,
      );
      expect(api.status).toBe(413);
      expect(JSON.parse(api.body)).toEqual({
        success: false,
        message: "The request is too large: the limit is 64 kB.",
      });

      const piece = Buffer.alloc(MB, "x");
      const chunked = Buffer.concat([
        ...Array.from({ length: 3 }, () => [
          Buffer.from(`${piece.length.toString(16)}\r\n`),
          piece,
          Buffer.from("\r\n"),
        ]).flat(),
        Buffer.from("0\r\n\r\n"),
      ]);
      const unmeasured = await sendPastTheAnswer(
        connection,
        "POST",
        "/login",
        { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
        chunked,
      );
      expect(unmeasured.status).toBe(411);
      expect(unmeasured.body).toContain("Send the length of the body (Content-Length).");
    });
  });

  it("an upload refused by role, before its body is read: the answer, then the next request", async () => {
    await onOneConnection(async (connection) => {
      const { type, body } = filmForm(4 * MB);
      const refused = await sendPastTheAnswer(
        connection,
        "POST",
        "/api/upload/movies",
        {
          Authorization: `Bearer ${viewer.token}`,
          "Content-Type": type,
        },
        body,
      );
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "Not allowed" });

      // The same on the studio's own upload route (the page's cookie).
      const studio = await sendPastTheAnswer(
        connection,
        "POST",
        "/provider/uploads",
        {
          Cookie: viewer.cookie,
          Origin: world.url,
          "Content-Type": type,
        },
        body,
      );
      expect(studio.status).toBe(403);

      // And by tus: a viewer's bytes for an upload.
      const bytes = Buffer.alloc(4 * MB);
      const tus = await sendPastTheAnswer(
        connection,
        "PATCH",
        "/provider/uploads/tus/someupload",
        {
          Authorization: `Bearer ${viewer.token}`,
          "Tus-Resumable": "1.0.0",
          "Upload-Offset": 0,
          "Content-Type": "application/offset+octet-stream",
        },
        bytes,
      );
      expect(tus.status).toBe(403);
      expect(JSON.parse(tus.body)).toMatchObject({ error: "Only content providers can upload films" });
    });
  });

  it("a page's form refused before its body is read (a viewer on an administrator's page): the answer, then the next request", async () => {
    await onOneConnection(async (connection) => {
      // A form with a file, under the 64 kB every page takes, larger than what used to be read before any route ran (16 kB).
      const { type, body } = filmForm(40 * 1024);
      const refused = await sendPastTheAnswer(
        connection,
        "POST",
        "/admin/movies",
        {
          Cookie: viewer.cookie,
          Origin: world.url,
          "Content-Type": type,
        },
        body,
      );
      expect(refused.status).toBe(403);
    });
  });

  it("an upload refused by its declared size, before its body is read: the answer, then the next request", async () => {
    await onOneConnection(async (connection) => {
      const { type, body } = filmForm(6 * MB);
      const refused = await sendPastTheAnswer(
        connection,
        "POST",
        "/api/upload/movies",
        {
          Authorization: `Bearer ${provider.token}`,
          "Content-Type": type,
        },
        body,
      );
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "The file is larger than the upload limit" });
    });
  });
});
