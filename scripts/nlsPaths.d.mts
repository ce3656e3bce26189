/** Types of scripts/nlsPaths.mjs, for the unit test that checks package.json's strings. */
export interface UserFacingString {
  readonly key: string;
  get(): unknown;
  set(v: string): void;
}
export function userFacingStrings(pkg: unknown): UserFacingString[];
