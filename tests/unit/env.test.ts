import { availableParallelism } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "~/utils/env.server";

describe("the environment module", () => {
  it("gives development safe defaults", () => {
    const env = parseEnv({});
    expect(env.nodeEnv).toBe("development");
    expect(env.port).toBe(3000);
    expect(env.storageDir).toBe(path.resolve("storage"));
    expect(env.databasePath).toBe(path.resolve("storage/data.db"));
    expect(env.sessionSecrets).toHaveLength(1);
    expect(env.maxUploadBytes).toBe(4096 * 1024 * 1024);
    expect(env.mediaJobs).toBe(1);
  });

  it("refuses a half-set SMS gateway, naming the setting, and writes SMS to files without one", () => {
    const problems = (source: Record<string, string>) => {
      try {
        parseEnv(source);
        return "";
      } catch (error) {
        return (error as EnvError).problems.join("\n");
      }
    };
    expect(problems({ SMS_PROVIDER: "africastalking", AT_USERNAME: "kallo" })).toMatch(
      /AT_API_KEY is required when SMS_PROVIDER=africastalking/,
    );
    expect(problems({ SMS_PROVIDER: "termii", TERMII_API_KEY: "key" })).toMatch(/TERMII_SENDER_ID is required/);
    expect(problems({ AT_API_KEY: "key" })).toMatch(/SMS_PROVIDER: AT_API_KEY is set but SMS_PROVIDER is not/);
    expect(problems({ SMS_PROVIDER: "twilio" })).toMatch(/SMS_PROVIDER must be africastalking or termii/);
    expect(problems({ SMS_COUNTRIES: "Nigeria" })).toMatch(/SMS_COUNTRIES/);
    const fileOnly = parseEnv({});
    expect(fileOnly.sms).toMatchObject({
      provider: "file",
      countries: ["NG"],
      priceMinor: 400,
      dailySpendCapMinor: 500_000,
    });
    expect(parseEnv({ SMS_PROVIDER: "termii", TERMII_API_KEY: "k", TERMII_SENDER_ID: "Kallo" }).sms.termii).toEqual({
      apiKey: "k",
      senderId: "Kallo",
      baseUrl: "https://api.ng.termii.com",
      channel: "generic",
    });
  });

  it("puts the database inside STORAGE_DIR unless DATABASE_PATH says otherwise", () => {
    expect(parseEnv({ STORAGE_DIR: "/srv/kallo" }).databasePath).toBe("/srv/kallo/data.db");
    expect(parseEnv({ STORAGE_DIR: "/srv/kallo", DATABASE_PATH: "/db/k.db" }).databasePath).toBe("/db/k.db");
  });

  it("stops a production start without a session secret, saying what to set", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(EnvError);
    try {
      parseEnv({ NODE_ENV: "production", SESSION_SECRET: "  " });
    } catch (error) {
      expect((error as EnvError).problems.join("\n")).toMatch(/SESSION_SECRET is required in production/);
    }
  });

  it("reads a comma-separated list of secrets for rotation, newest first", () => {
    const env = parseEnv({ NODE_ENV: "production", SESSION_SECRET: "new-secret, old-secret" });
    expect(env.sessionSecrets).toEqual(["new-secret", "old-secret"]);
    expect(env.isProduction).toBe(true);
  });

  it("serves with one process per core unless WORKERS says otherwise, and refuses nonsense", () => {
    expect(parseEnv({}).workers).toBe(availableParallelism());
    expect(parseEnv({ WORKERS: "1" }).workers).toBe(1);
    expect(parseEnv({ WORKERS: "3" }).workers).toBe(3);
    expect(() => parseEnv({ WORKERS: "0" })).toThrow(/WORKERS/);
    expect(() => parseEnv({ WORKERS: "two" })).toThrow(/WORKERS/);
  });

  it("refuses a port that is not a port, and a bad SMTP URL", () => {
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ PORT: "web" })).toThrow(/PORT/);
    expect(() => parseEnv({ SMTP_URL: "not a url" })).toThrow(/SMTP_URL/);
  });

  it("wants the administrator's email and password together, and a real password", () => {
    expect(() => parseEnv({ ADMIN_EMAIL: "boss@example.com" })).toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD go together/);
    expect(() => parseEnv({ ADMIN_EMAIL: "boss@example.com", ADMIN_PASSWORD: "short" })).toThrow(/at least 8/);
    const env = parseEnv({ ADMIN_EMAIL: "Boss@Example.com", ADMIN_PASSWORD: "long enough" });
    expect(env.adminEmail).toBe("boss@example.com");
  });

  it("treats empty variables as unset", () => {
    const env = parseEnv({ SMTP_URL: "", DATABASE_PATH: "", ADMIN_EMAIL: "", ADMIN_PASSWORD: "" });
    expect(env.smtpUrl).toBeUndefined();
    expect(env.adminEmail).toBeUndefined();
  });
});
