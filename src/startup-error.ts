/** A gateway that cannot start as configured (a setting, the database, a port): printed as one line, exit code 2. */
export class StartupError extends Error {}
