/** A command line the CLI cannot run (unknown command, missing or bad argument): exit code 2 with the message. */
export class UsageError extends Error {}
