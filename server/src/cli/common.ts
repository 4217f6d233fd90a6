import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config';
import { setPasswordHashCost } from '../staff/password';
import { openDatabase, type Database } from '../db/client';
import { DataDirLockedError } from '../db/lock';

/** Ends a command-line tool with a message for the person who ran it, not a stack trace. */
export function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/**
 * The command's arguments. A mistyped option or a stray argument ends it with the message and the
 * usage (exit 2), not Node's stack trace; `--help` (declare it in the options) prints the usage.
 */
export function cliArgs<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    console.error(`✖ ${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** The server's configuration (with the password hash cost it sets), or an exit naming the bad variable. */
export function cliConfig(): Config {
  try {
    const config = loadConfig();
    setPasswordHashCost(config.passwordHashCost);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** Opens the configured database; `whenLocked` says what to do while the server holds PGlite's data directory. */
export async function cliDatabase(config: Config, whenLocked: string): Promise<Database> {
  return openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir }).catch((error) => {
    if (error instanceof DataDirLockedError) fail(`${error.message}\n${whenLocked}`);
    throw error;
  });
}
