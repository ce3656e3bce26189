/**
 * The parts of package.json derived from the catalog: one palette command per endpoint.
 * `npm run sync` writes them (and the README endpoint table); a unit test checks they are current.
 */
import { ENDPOINTS, commandIdOf } from '../spec/catalog';

const CATEGORY = 'Wallet Analytics';
export const ENDPOINT_COMMAND_PREFIX = 'walletAnalytics.endpoint.';

interface CommandContribution {
  readonly command: string;
  readonly title: string;
  readonly category: string;
}

/** A command contribution for every endpoint, in catalog order. */
export function endpointCommands(): CommandContribution[] {
  return ENDPOINTS.map((ep) => ({ command: commandIdOf(ep), title: ep.title, category: CATEGORY }));
}
