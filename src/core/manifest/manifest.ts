/**
 * The parts of package.json derived from the catalog: one palette command per endpoint, and one
 * language-model tool per paid endpoint beside the free tools (core/agents/declarations.ts).
 * `npm run sync` writes them (and the README endpoint table); a unit test checks they are current.
 */
import { ENDPOINTS, commandIdOf } from '../spec/catalog';
import { TOOL_PREFIX, toolDeclarations } from '../agents/declarations';

const CATEGORY = 'Wallet Analytics';
// scripts/sync.mjs reads the prefix from this file.
export { ENDPOINT_COMMAND_PREFIX } from '../ids';

interface CommandContribution {
  readonly command: string;
  readonly title: string;
  readonly category: string;
}

/** A command contribution for every endpoint, in catalog order. */
export function endpointCommands(): CommandContribution[] {
  return ENDPOINTS.map((ep) => ({ command: commandIdOf(ep), title: ep.title, category: CATEGORY }));
}

/** A `contributes.languageModelTools` entry (VS Code's schema: name, displayName, modelDescription required). */
interface ToolContribution {
  readonly name: string;
  readonly toolReferenceName: string;
  readonly displayName: string;
  readonly userDescription: string;
  readonly modelDescription: string;
  readonly canBeReferencedInPrompt: boolean;
  readonly icon: string;
  readonly tags: readonly string[];
  readonly inputSchema: Record<string, unknown>;
}

/** The language-model tools of core/agents/declarations.ts, as package.json declares them (written by `npm run sync`). */
export function languageModelTools(): ToolContribution[] {
  return toolDeclarations().map((t) => ({
    name: t.name,
    toolReferenceName: `wa_${t.name.slice(TOOL_PREFIX.length)}`,
    displayName: t.displayName,
    userDescription: t.userDescription,
    modelDescription: t.modelDescription,
    canBeReferencedInPrompt: true,
    icon: t.paid ? '$(credit-card)' : '$(graph)',
    tags: t.tags,
    inputSchema: t.inputSchema,
  }));
}
