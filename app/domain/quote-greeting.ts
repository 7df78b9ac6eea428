/**
 * Whom the default mail of a quote greets (issue 26; the new-user review).
 *
 * A quote knows its customer by one name field ("Kunde (Name oder Firma)") and a
 * free address. It has no field for a contact person, so the address is read the
 * way German letters name one: a line "z. Hd. Frau Anna Schmidt" (also "z.Hd.",
 * "zu Händen", "Ansprechpartner:", "Attn."). Then:
 *
 * - a named contact person: "Guten Tag Frau Anna Schmidt," (as typed after "z. Hd.");
 * - a company without one (a legal form such as GmbH, UG, AG, e. K., e. V., Ltd. in the
 *   name, or "Firma …"): "Sehr geehrte Damen und Herren," — no company is greeted by name;
 * - a person: "Guten Tag Anna Schmidt," as before;
 * - no name at all: "Guten Tag,".
 *
 * Pure and browser-safe; the seller edits the text before sending anyway.
 */

export type QuoteGreeting = { kind: 'contact' | 'person'; name: string } | { kind: 'company' | 'none' };

const CONTACT_LINE = /^\s*(?:z\.\s*hd|zu\s+h(?:ä|ae)nden(?:\s+von)?|ansprechpartner(?:in)?|attn|attention)[\s.:]+(\p{L}.*)$/iu;

/** Legal forms and words that make a customer name a company's (whole words, case as usually written). */
const COMPANY =
  /(?:^|[\s,(])(?:gGmbH|GmbH|mbH|AG|KGaA|KG|OHG|oHG|UG|GbR|eG|SE|PartG|PartGmbB|e\.\s?K\.|e\.\s?Kfm\.|e\.\s?Kfr\.|e\.\s?V\.|Ltd\.?|LLC|Inc\.?|Corp\.?|S\.A\.|B\.V\.|S\.r\.l\.|SARL|& Co\.?|und Co\.?)(?=$|[\s,.)])|^\s*Firma\s/u;

export function isCompanyName(name: string): boolean {
  return COMPANY.test(name);
}

/** The contact person named in the customer's address ("z. Hd. …"), or null. */
export function contactPersonOf(address: string | null | undefined): string | null {
  for (const line of (address ?? '').split('\n')) {
    const match = CONTACT_LINE.exec(line);
    // Trailing spaces are trimmed here, not by the pattern: a lazy `.*?` before `\s*$` is quadratic on a long run of spaces.
    const name = match?.[1]?.trim().replace(/[,;:]+$/u, '').trim();
    if (name) return name;
  }
  return null;
}

export function quoteGreeting(customerName: string, customerAddress: string | null | undefined): QuoteGreeting {
  const contact = contactPersonOf(customerAddress);
  if (contact) return { kind: 'contact', name: contact };
  const name = customerName.trim();
  if (!name) return { kind: 'none' };
  if (isCompanyName(name)) return { kind: 'company' };
  return { kind: 'person', name };
}
