import type { DB } from "~/db/client.server";

type Runner = (...args: unknown[]) => unknown;

/**
 * Count the SQL statements run on a connection from now on (every run, get,
 * all and iterate of every statement it prepares from now on, whether Drizzle
 * prepares it once or for each call). Install it before the code under test
 * prepares anything on this connection.
 */
export function countStatements(db: DB) {
  const sqlite = db.$client;
  const prepare = sqlite.prepare.bind(sqlite);
  const ran: string[] = [];
  const bound: { source: string; args: unknown[] }[] = [];
  sqlite.prepare = ((source: string) => {
    const statement = prepare(source) as unknown as Record<string, Runner>;
    for (const method of ["run", "get", "all", "iterate"]) {
      const original = statement[method]!;
      statement[method] = function (this: unknown, ...args: unknown[]) {
        ran.push(source);
        bound.push({ source, args });
        return original.apply(this, args);
      };
    }
    return statement;
  }) as unknown as typeof sqlite.prepare;
  return {
    /** The statements run since the last `take`, and forget them. */
    take(): string[] {
      bound.splice(0);
      return ran.splice(0);
    },
    /** The statements run since the last `take`, each with the values it was run with, and forget them. */
    takeWithValues(): { source: string; args: unknown[] }[] {
      ran.splice(0);
      return bound.splice(0);
    },
  };
}
