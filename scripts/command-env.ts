/**
 * The settings for an operator's command, read once at its start: a bad value is one message and exit 2,
 * never a stack trace. A command that signs nothing (media:move, media:cors) runs without SESSION_SECRET.
 */
import { EnvError, getEnv, runWithoutSessionSecret, type Env } from "../app/utils/env.server";

export function commandEnv(name: string, options: { signs: boolean }): Env {
  if (!options.signs) runWithoutSessionSecret();
  try {
    return getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`[${name}] ${error.message}`);
    process.exit(2);
  }
}
