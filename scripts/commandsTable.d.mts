/** Types of scripts/commandsTable.mjs, for the unit test that checks the README's list. */
export const COMMANDS_START: string;
export const COMMANDS_END: string;
export function commandsTable(pkg: unknown, nls: Readonly<Record<string, string>>): string;
