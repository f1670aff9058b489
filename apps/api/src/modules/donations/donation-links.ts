import { createSignedIds } from '../../lib/signed-id.ts';

/**
 * The `/actions/{actionId}` links of a monthly donor's e-mails: the action row's id signed under ACTION_LINK_SECRET
 * (`lib/signed-id.ts`), so a link cannot be guessed or altered into another action's.
 */
export function createActionLinks(secret: string) {
  const ids = createSignedIds('donation-action', secret);
  return { tokenOf: ids.tokenOf, actionIdOf: ids.idOf };
}
export type ActionLinks = ReturnType<typeof createActionLinks>;
