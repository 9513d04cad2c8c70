import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login, RawConnection, seedAccount, startApiWorld, type ApiWorld, type Credentials } from "./helpers";

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
  world = await startApiWorld("refused-bodies", 3311);
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

async function healthy(connection: RawConnection): Promise<void> {
  await connection.send(head("GET", "/healthz", {}));
  expect((await connection.read()).status).toBe(200);
}

describe("a refused body's answer reaches a client that is still sending it", () => {
  it("over the form limit (413) or without a length (411): the answer, then the next request on the same connection", async () => {
    const connection = await RawConnection.open(world);
    try {
      const form = Buffer.from(`email=${"x".repeat(3 * MB)}`);
      const page = await connection.sendPastTheAnswer(
        head("POST", "/login", { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": form.length }),
        form,
        64 * 1024,
      );
      expect(page.status).toBe(413);
      expect(page.body).toContain("The request is too large: the limit is 1 MB.");
      expect(page.body).toContain("Abin da aka aika ya yi girma: iyaka MB 1 ne.");

      const json = Buffer.from(JSON.stringify({ email: "x".repeat(3 * MB) }));
      const api = await connection.sendPastTheAnswer(
        head("POST", "/api/user/login", { "Content-Type": "application/json", "Content-Length": json.length }),
        json,
        64 * 1024,
      );
      expect(api.status).toBe(413);
      expect(JSON.parse(api.body)).toEqual({ success: false, message: "The request is too large: the limit is 1 MB." });

      const piece = Buffer.alloc(MB, "x");
      const chunked = Buffer.concat([
        ...Array.from({ length: 3 }, () => [
          Buffer.from(`${piece.length.toString(16)}\r\n`),
          piece,
          Buffer.from("\r\n"),
        ]).flat(),
        Buffer.from("0\r\n\r\n"),
      ]);
      const unmeasured = await connection.sendPastTheAnswer(
        head("POST", "/login", { "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" }),
        chunked,
        64 * 1024,
      );
      expect(unmeasured.status).toBe(411);
      expect(unmeasured.body).toContain("Send the length of the body (Content-Length).");

      await healthy(connection);
      expect(connection.failure).toBeNull();
    } finally {
      connection.close();
    }
  });

  it("an upload refused by role, before its body is read: the answer, then the next request", async () => {
    const connection = await RawConnection.open(world);
    try {
      const { type, body } = filmForm(4 * MB);
      const refused = await connection.sendPastTheAnswer(
        head("POST", "/api/upload/movies", {
          Authorization: `Bearer ${viewer.token}`,
          "Content-Type": type,
          "Content-Length": body.length,
        }),
        body,
        64 * 1024,
      );
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "Not allowed" });

      // The same on the studio's own upload route (the page's cookie).
      const studio = await connection.sendPastTheAnswer(
        head("POST", "/provider/uploads", {
          Cookie: viewer.cookie,
          Origin: world.url,
          "Content-Type": type,
          "Content-Length": body.length,
        }),
        body,
        64 * 1024,
      );
      expect(studio.status).toBe(403);

      // And by tus: a viewer's bytes for an upload.
      const bytes = Buffer.alloc(4 * MB);
      const tus = await connection.sendPastTheAnswer(
        head("PATCH", "/provider/uploads/tus/someupload", {
          Authorization: `Bearer ${viewer.token}`,
          "Tus-Resumable": "1.0.0",
          "Upload-Offset": 0,
          "Content-Type": "application/offset+octet-stream",
          "Content-Length": bytes.length,
        }),
        bytes,
        64 * 1024,
      );
      expect(tus.status).toBe(403);
      expect(JSON.parse(tus.body)).toMatchObject({ error: "Only content providers can upload films" });

      await healthy(connection);
      expect(connection.failure).toBeNull();
    } finally {
      connection.close();
    }
  });

  it("a page's form refused before its body is read (a viewer on an administrator's page): the answer, then the next request", async () => {
    const connection = await RawConnection.open(world);
    try {
      // A form with a poster: larger than what used to be read before any route ran (16 kB).
      const { type, body } = filmForm(400 * 1024);
      const refused = await connection.sendPastTheAnswer(
        head("POST", "/admin/movies", {
          Cookie: viewer.cookie,
          Origin: world.url,
          "Content-Type": type,
          "Content-Length": body.length,
        }),
        body,
        64 * 1024,
      );
      expect(refused.status).toBe(403);

      await healthy(connection);
      expect(connection.failure).toBeNull();
    } finally {
      connection.close();
    }
  });

  it("an upload refused by its declared size, before its body is read: the answer, then the next request", async () => {
    const connection = await RawConnection.open(world);
    try {
      const { type, body } = filmForm(6 * MB);
      const refused = await connection.sendPastTheAnswer(
        head("POST", "/api/upload/movies", {
          Authorization: `Bearer ${provider.token}`,
          "Content-Type": type,
          "Content-Length": body.length,
        }),
        body,
        64 * 1024,
      );
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toEqual({ success: false, message: "The file is larger than the upload limit" });

      await healthy(connection);
      expect(connection.failure).toBeNull();
    } finally {
      connection.close();
    }
  });
});
