/**
 * An endpoint's input checked with its address lists walked a slice at a time first
 * (checkAddressListSliced), then by the endpoint's schema (catalog.ts validateInput),
 * which then takes each list as it is. Why: a list of 100,000 addresses typed, pasted or given by
 * an agent was checked in one synchronous loop, one long turn of the extension host's loop, at each
 * check of the same call (issue 34 item 4). The result is validateInput's, for exactly the list
 * that is then priced, approved and sent.
 */
import { checkedAddresses, isAddress, isCheckedFor, normaliseAddress, SpreadSet, type Chain } from './addresses';
import { validateInput, type Endpoint } from './catalog';

/** Items of a list checked between two turns of the loop (checkAddressListSliced): well under a millisecond. */
const CHECK_SLICE = 2_048;

/**
 * A list from anywhere (typed, pasted, an agent's, a file's) checked as addressListSchema checks
 * it, CHECK_SLICE items a turn of the loop: its output (trimmed, normalised, distinct, in order),
 * marked checked, so the endpoint's input check then takes it as it is. 100,000 addresses checked
 * in the schema's one loop held the extension host's loop in one turn (issue 34 item 4). Anything
 * else (not an array, an item that is not an address) comes back as it was given, for the input
 * check to say what is wrong in its words; whatever comes back is what is then checked, priced and sent.
 */
async function checkAddressListSliced(list: unknown, chain: Chain): Promise<unknown> {
  if (!Array.isArray(list) || list.length <= CHECK_SLICE || isCheckedFor(list, chain)) return list;
  const set = new SpreadSet();
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && i % CHECK_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const item: unknown = list[i];
    if (typeof item !== 'string') return list;
    const v = item.trim();
    if (!isAddress(v, chain)) return list;
    const n = normaliseAddress(v, chain);
    if (set.add(n)) out.push(n);
  }
  return checkedAddresses(out, chain);
}

/** `raw` with each of its address lists that checks out replaced by its checked form (marked: every later check of it is short). */
export async function checkListsSliced(ep: Endpoint, raw: unknown): Promise<unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  let given = raw as Record<string, unknown>;
  for (const f of ep.fields) {
    if (f.kind !== 'addressList' || f.chain === undefined) continue;
    const list = given[f.key];
    const checked = await checkAddressListSliced(list, f.chain);
    if (checked !== list) given = { ...given, [f.key]: checked };
  }
  return given;
}

/** validateInput, with every address list of `raw` checked a slice at a time beforehand. */
export async function validateInputSliced(ep: Endpoint, raw: unknown): Promise<ReturnType<typeof validateInput>> {
  return validateInput(ep, await checkListsSliced(ep, raw));
}
