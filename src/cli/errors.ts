/**
 * A mistake of the user's (bad column syntax, an unknown table, a migration that does not apply): the command
 * prints its message as one line and exits with code 1, having written nothing.
 */
export class CliError extends Error {
  override name = "CliError";
}
