import type { ContextKeySetter } from './contextKeys';
import type { Log } from './log';
import type { ApiKeyStore } from './secrets';

/** The long-lived services activate() builds once and hands to every feature. */
export interface Services {
  readonly contextKeys: ContextKeySetter;
  readonly keys: ApiKeyStore;
  readonly log: Log;
}
